// Helpers of the link-service tests: the system's chromium through playwright-core (one browser per
// file), a small callback server that plays the application (records every callback, serves a
// parent page for iframe mode), and the authorize URL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { raw } from '../helpers/sandbox.js';
import { requires, toolPath } from '../helpers/requires.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** The link tests drive a real browser: chromium (or chromium-browser, google-chrome) on PATH. */
export const needsChromium = requires({ tools: ['chromium'] });

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: toolPath('chromium'),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Callback {
  port: number;
  /** http://localhost:<port>/callback: registered by default for any loopback port (RFC 8252). */
  redirectUri: string;
  origin: string;
  /** Query parameters of each GET /callback received, in order. */
  received: URLSearchParams[];
  /** Serves this HTML at GET <path> (iframe host pages); returns the page's URL. */
  setPage(path: string, html: string): string;
  close(): Promise<void>;
}

export async function startCallback(): Promise<Callback> {
  const received: URLSearchParams[] = [];
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/callback') {
      received.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>app</title><h1 id="app">Back in the app</h1>');
    } else if (pages.has(url.pathname)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages.get(url.pathname));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    redirectUri: `http://localhost:${port}/callback`,
    origin: `http://localhost:${port}`,
    received,
    setPage: (path, html) => {
      pages.set(path, html);
      return `http://localhost:${port}${path}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function authorizeUrl(sb: Sandbox, params: Record<string, string | undefined>): string {
  const u = new URL(`${sb.linkUrl}/1.0/authorize/`);
  const all: Record<string, string | undefined> = { client_id: sb.clientId, scope: 'accounts:read', ...params };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

/** Navigates and waits for the callback; returns its query parameters. */
export async function waitForCallback(page: Page, cb: Callback): Promise<URLSearchParams> {
  // the URL, not the page's load event: on a loaded machine the load came after 15 s though the
  // callback was reached; #app below says the page is there
  await page.waitForURL((u) => u.port === String(cb.port) && u.pathname === '/callback', {
    timeout: 30_000,
    waitUntil: 'commit',
  });
  await page.locator('#app').waitFor();
  return new URL(page.url()).searchParams;
}

export async function exchange(sb: Sandbox, code: string): Promise<{ status: number; body: any }> {
  const r = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/token', {
    form: { client_id: sb.clientId, client_secret: sb.clientSecret, grant_type: 'authorization_code', code },
  });
  return { status: r.status, body: r.text ? JSON.parse(r.text) : null };
}

/** Fails the test on a script error in the page (a broken page would otherwise just hang). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}
