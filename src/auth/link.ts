// The hosted link flow from the CLI's side: a local callback server on localhost:<port>/callback,
// a random state of 256 bits checked on the callback (a wrong one is answered 400 and ignored),
// the browser opened, and the result handed back: a code, or the service's error.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { win32 } from 'node:path';
import { secretsEqual } from '../contract/secrets.js';

export interface LinkParams {
  linkUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  market?: string;
  locale?: string;
  provider?: string;
  username?: string;
  /** A Link session (POST /link/v1/session), sent as session_id. */
  session?: string;
  state: string;
}

export function newState(): string {
  return randomBytes(32).toString('base64url');
}

export function authorizeUrl(p: LinkParams): string {
  const u = new URL(`${p.linkUrl.replace(/\/+$/, '')}/1.0/authorize/`);
  u.searchParams.set('client_id', p.clientId);
  u.searchParams.set('redirect_uri', p.redirectUri);
  u.searchParams.set('scope', p.scopes.join(','));
  if (p.market) u.searchParams.set('market', p.market);
  if (p.locale) u.searchParams.set('locale', p.locale);
  if (p.provider) u.searchParams.set('input_provider', p.provider);
  if (p.username) u.searchParams.set('input_username', p.username);
  if (p.session) u.searchParams.set('session_id', p.session);
  u.searchParams.set('state', p.state);
  return u.toString();
}

/**
 * The error parameters a failed link flow's callback may carry besides `error` and `message`, in
 * the order they are reported (the vendor's Tink Link error reference: error_reason and tracking_id
 * always, error_type for AUTHENTICATION_ERROR, provider_name once a bank was picked, credentials once
 * they were made, payment_request_id for payments).
 */
export const LINK_ERROR_PARAMS = [
  'error_type',
  'error_reason',
  'provider_name',
  'tracking_id',
  'credentials',
  'payment_request_id',
] as const;

export type LinkResult =
  | { kind: 'code'; code: string; credentialsId?: string; transactionReportId?: string }
  | {
      kind: 'error';
      error: string;
      message: string;
      credentials?: string;
      /** Each LINK_ERROR_PARAMS entry the callback carried, as sent (sanitise before printing). */
      details: Record<string, string>;
    };

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style></head>` +
  `<body><h1>${title}</h1><p>${body}</p></body></html>`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface CallbackServer {
  port: number;
  /** Resolves with the first callback that carries the right state. */
  result: Promise<LinkResult>;
  close(): Promise<void>;
}

/** Listens on localhost (IPv4 and, where available, IPv6) for GET /callback. */
export async function startCallbackServer(
  port: number,
  state: string,
  onRejected: (why: string) => void,
): Promise<CallbackServer> {
  let resolveResult!: (r: LinkResult) => void;
  const result = new Promise<LinkResult>((r) => (resolveResult = r));
  let done = false;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, html: string) => {
      res.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      res.end(html);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      return send(400, page('Bad request', 'The callback address is malformed.'));
    }
    if (req.method !== 'GET' || url.pathname !== '/callback')
      return send(404, page('Not found', 'This is the bankctl callback server; it only answers /callback.'));
    const got = url.searchParams.get('state') ?? '';
    if (!secretsEqual(state, got)) {
      onRejected(got ? 'a callback with a wrong state was ignored' : 'a callback without a state was ignored');
      return send(
        400,
        page(
          'State mismatch',
          'This callback does not belong to the running <code>bankctl auth link</code>; it was ignored.',
        ),
      );
    }
    if (done)
      return send(200, page('Already done', 'bankctl has already received the result. You can close this window.'));
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (code) {
      done = true;
      send(
        200,
        page('Connected', 'bankctl received the authorization. You can close this window and return to the terminal.'),
      );
      resolveResult(codeResult(code, url.searchParams));
    } else if (error) {
      done = true;
      const message = url.searchParams.get('message') ?? '';
      send(
        200,
        page(
          'The link flow ended with an error',
          `${escapeHtml(error)}${message ? `: ${escapeHtml(message)}` : ''}. Details are in the terminal.`,
        ),
      );
      const details: Record<string, string> = {};
      for (const k of LINK_ERROR_PARAMS) {
        const v = url.searchParams.get(k);
        if (v !== null && v !== '') details[k] = v;
      }
      resolveResult({ kind: 'error', error, message, credentials: details.credentials, details });
    } else {
      onRejected('a callback with neither code nor error was ignored');
      send(400, page('Bad request', 'The callback carries neither a code nor an error.'));
    }
  };
  const servers: Server[] = [];
  const listen = (host: string, p: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer(handler);
      s.once('error', reject);
      s.listen(p, host, () => resolve(s));
    });
  const first = await listen('127.0.0.1', port);
  servers.push(first);
  const actual = (first.address() as { port: number }).port;
  try {
    servers.push(await listen('::1', actual));
  } catch {
    // no IPv6 loopback here: 127.0.0.1 alone serves "localhost"
  }
  return {
    port: actual,
    result,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.closeAllConnections();
              s.close(() => r());
            }),
        ),
      );
    },
  };
}

/** How a platform opens a URL: a program and its argv, never a shell. */
export interface BrowserCommand {
  cmd: string;
  args: string[];
  /** Windows: the argv joined as is (libuv would quote and backslash-escape, which rundll32 keeps). */
  windowsVerbatimArguments?: boolean;
}

/**
 * The command that opens url in the browser on this platform, or undefined when there is none (no
 * display on Linux) or the URL is not http(s) (a file: or other scheme opens a program, not a page).
 * The URL goes as one argv element, serialised first (WHATWG), so it holds no space or quote.
 * Windows: rundll32 url.dll,FileProtocolHandler takes the rest of its command line as the URL; the
 * former `cmd /c start "" URL` had cmd read the URL, cutting it at & (the state after client_id was
 * lost) and treating ^ | % as its own. The full path: libuv looks in the current directory first.
 */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): BrowserCommand | undefined {
  let href: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    href = u.href;
  } catch {
    return undefined;
  }
  if (platform === 'darwin') return { cmd: 'open', args: [href] };
  if (platform === 'win32') {
    const root = env.SystemRoot ?? env.SYSTEMROOT ?? env.windir ?? 'C:\\Windows';
    return {
      cmd: win32.join(root, 'System32', 'rundll32.exe'),
      args: ['url.dll,FileProtocolHandler', href],
      windowsVerbatimArguments: true,
    };
  }
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { cmd: 'xdg-open', args: [href] };
}

/** Opens a URL in the user's browser when there is one; returns whether it tried. */
export async function openBrowser(url: string, env: Record<string, string | undefined>): Promise<boolean> {
  const command = browserCommand(url, process.platform, env);
  if (!command) return false;
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    try {
      const child = spawn(command.cmd, command.args, {
        stdio: 'ignore',
        detached: true,
        shell: false,
        windowsVerbatimArguments: command.windowsVerbatimArguments ?? false,
      });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/** A success callback: the code, and the credentials and transaction report it names when it does. */
function codeResult(code: string, params: URLSearchParams): LinkResult {
  const credentialsId = params.get('credentials_id') ?? undefined;
  const transactionReportId = params.get('transaction_report_id') ?? undefined;
  return {
    kind: 'code',
    code,
    ...(credentialsId ? { credentialsId } : {}),
    ...(transactionReportId ? { transactionReportId } : {}),
  };
}
