// A tiny node:http server that answers from a script, for the HTTP core's edge cases.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, tempDir, type CliResult } from './cli.js';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Step = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export async function scriptedServer(
  steps: Step[] | ((n: number) => Step),
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const n = seen.length - 1;
      const step = typeof steps === 'function' ? steps(n) : steps[Math.min(n, steps.length - 1)];
      step!(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const reply =
  (status: number, body = '', headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

export const hangUp: Step = (req) => req.socket.destroy();
export const never: Step = () => undefined;

/** The environment of a run against a scripted server with a ready user token: a fresh config, no retries. */
export function readyTokenEnv(url: string): Record<string, string> {
  return { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: url, BANKCTL_TOKEN: 'ready-token', BANKCTL_RETRIES: '0' };
}

/** A server answering every request with the JSON text of the moment (`answer.body`, set by the test). */
export async function jsonAnswerServer(): Promise<{ url: string; body: string; close(): Promise<void> }> {
  const answer: { url: string; body: string; close(): Promise<void> } = { url: '', body: '', close: async () => {} };
  const s = await scriptedServer(
    () => (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer.body),
  );
  answer.url = s.url;
  answer.close = s.close;
  return answer;
}

/**
 * bin/bankctl.js run once against a node:http server that answers every request with this JSON
 * (a user token given, retries as configured), the server closed after.
 */
export async function runWithAnswer(body: unknown, argv: string[], configDir: string): Promise<CliResult> {
  const server = await jsonAnswerServer();
  server.body = JSON.stringify(body);
  try {
    return await runCli(argv, {
      env: { BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'token-1', BANKCTL_CONFIG_DIR: configDir },
    });
  } finally {
    await server.close();
  }
}
