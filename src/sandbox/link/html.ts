// HTML of the link pages. Everything echoed is escaped here; the page script writes data with
// textContent only. Pages carry a strict CSP (one nonce for the inline style and script), and are
// framable only in iframe mode, and then only by the redirect URI's origin.
import { randomBytes } from 'node:crypto';
import { text, type LinkLocale, type Texts } from './i18n.js';
import { LINK_SCRIPT } from './script.js';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside <script type="application/json">. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:30rem;margin:2rem auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:1.25rem 1.5rem 1.5rem}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;border-bottom:1px solid #e6e8ec;padding-bottom:.75rem;margin-bottom:1rem}
header h1{font-size:1.15rem;margin:0}
h2{font-size:1.05rem;margin:.25rem 0 1rem}
button,.button{font:inherit;border-radius:8px;padding:.55rem 1rem;border:1px solid #c8ccd4;background:#fff;cursor:pointer;color:inherit;text-decoration:none;display:inline-block}
button.primary{background:#1f5eff;border-color:#1f5eff;color:#fff}
button.link{border:none;background:none;color:#1f5eff;padding:.25rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=password],input[type=search],select{font:inherit;width:100%;padding:.5rem .6rem;border:1px solid #c8ccd4;border-radius:8px}
input[readonly]{background:#f0f1f4}
.help{font-size:.85rem;color:#5b6375;margin:.25rem 0 0}
.error{color:#b3261e;font-size:.9rem;margin:.25rem 0 0}
.providers{list-style:none;padding:0;margin:1rem 0 0;max-height:22rem;overflow:auto}
.providers li{margin:0 0 .4rem}
.providers button{width:100%;text-align:left;display:flex;justify-content:space-between;align-items:center;gap:.5rem}
.providers small{display:block;color:#5b6375;font-size:.8rem}
.badge{font-size:.7rem;background:#fff3cd;color:#6b4e00;border-radius:4px;padding:.1rem .35rem}
.row{display:flex;gap:.5rem;margin-top:1.25rem;justify-content:flex-end}
.status{display:flex;align-items:center;gap:.6rem;margin:1rem 0}
.spinner{width:1.1rem;height:1.1rem;border:3px solid #d5d9e2;border-top-color:#1f5eff;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
.qr{display:block;margin:1rem auto;width:200px;height:200px;image-rendering:pixelated}
.checkbox{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
.links a{display:block;margin:.4rem 0}
`;

export interface PageOptions {
  locale: LinkLocale;
  /** iframe mode: the one origin allowed to frame the page (the redirect URI's). */
  frameAncestor?: string;
}

function securityHeaders(nonce: string, o: PageOptions): Record<string, string> {
  const ancestors = o.frameAncestor ? o.frameAncestor : "'none'";
  const h: Record<string, string> = {
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors ${ancestors}`,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (!o.frameAncestor) h['x-frame-options'] = 'DENY';
  return h;
}

function document(o: PageOptions, title: string, body: string, nonce: string): string {
  const lang = o.locale === 'sv_SE' ? 'sv' : 'en';
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer">` +
    `<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>` +
    `<body>${body}</body></html>`
  );
}

export interface Page {
  status: number;
  html: string;
  headers: Record<string, string>;
}

/**
 * The error screen for a link that cannot be used. `returnUrl` (only ever a validated redirect
 * URI with error parameters) adds a way back to the application.
 */
export function errorScreen(
  o: PageOptions & { status: number; heading: string; lead: string; detail?: string; returnUrl?: string },
): Page {
  const nonce = randomBytes(16).toString('base64');
  const t = (k: keyof Texts) => escapeHtml(text(o.locale, k));
  const body =
    `<main data-screen="error"><header><h1>${t('pageTitle')}</h1></header>` +
    `<h2 id="heading">${escapeHtml(o.heading)}</h2><p id="lead">${escapeHtml(o.lead)}</p>` +
    (o.detail ? `<p class="error" id="detail">${escapeHtml(o.detail)}</p>` : '') +
    (o.returnUrl
      ? `<div class="row"><a class="button" id="return" href="${escapeHtml(o.returnUrl)}" target="_top">${t('returnToApp')}</a></div>`
      : '') +
    `</main>`;
  return { status: o.status, html: document(o, o.heading, body, nonce), headers: securityHeaders(nonce, o) };
}

/** The link application: a shell, its configuration as JSON, and the page script. */
export function appPage(o: PageOptions & { config: Record<string, unknown> }): Page {
  const nonce = randomBytes(16).toString('base64');
  const t = (k: keyof Texts) => escapeHtml(text(o.locale, k));
  const body =
    `<main><header><h1 id="title">${t('pageTitle')}</h1><button type="button" id="cancel">${t('cancel')}</button></header>` +
    `<section id="screen" aria-live="polite"><noscript>${t('jsRequired')}</noscript></section></main>` +
    `<script type="application/json" id="link-config">${scriptJson(o.config)}</script>` +
    `<script nonce="${nonce}">${LINK_SCRIPT}</script>`;
  return {
    status: 200,
    html: document(o, text(o.locale, 'pageTitle'), body, nonce),
    headers: securityHeaders(nonce, o),
  };
}

/** A page that only posts a message to its parent (iframe mode, answered before the app starts). */
export function postMessagePage(o: PageOptions & { message: unknown; targetOrigin: string }): Page {
  const nonce = randomBytes(16).toString('base64');
  const body =
    `<main><p>${escapeHtml(text(o.locale, 'returning'))}</p></main>` +
    `<script type="application/json" id="msg">${scriptJson({ message: o.message, targetOrigin: o.targetOrigin })}</script>` +
    `<script nonce="${nonce}">(function(){var m=JSON.parse(document.getElementById('msg').textContent);if(window.parent!==window)window.parent.postMessage(m.message,m.targetOrigin);})();</script>`;
  return {
    status: 200,
    html: document(o, text(o.locale, 'pageTitle'), body, nonce),
    headers: securityHeaders(nonce, o),
  };
}
