// Helpers of the webhook tests: a recording receiver on loopback, and a spawned `webhooks listen`.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN } from '../helpers/cli.js';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json(): any;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides each answer; default 200. */
  respond: (r: Received, res: ServerResponse, n: number) => void;
  /** Resolves once `n` requests came (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const r: Receiver = {
    url: '',
    port: 0,
    received,
    respond: (_r, res) => res.writeHead(200).end('ok'),
    waitFor(n, ms = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length >= n) {
            clearTimeout(timer);
            resolve(received.slice());
          } else waiters.push(check);
        };
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} of ${n} requests came in ${ms} ms`)),
          ms,
        );
        check();
      });
    },
    close: () =>
      new Promise<void>((res) => {
        server.close(() => res());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const rec: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json: () => JSON.parse(body),
      };
      received.push(rec);
      r.respond(rec, res, received.length);
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  return r;
}

export interface Listener {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** stdout split into lines, parsed as JSON. */
  events(): any[];
  waitForStdoutLines(n: number, ms?: number): Promise<string[]>;
  waitForStderr(re: RegExp, ms?: number): Promise<void>;
  exited: Promise<number>;
  kill(signal?: NodeJS.Signals): void;
}

/** Spawns `bankctl webhooks listen --port 0 ...args` and waits for its "listening on" line. */
export async function spawnListener(args: string[], env: Record<string, string>): Promise<Listener> {
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let out = '';
  let err = '';
  const ticks: Array<() => void> = [];
  const tick = () => ticks.splice(0).forEach((f) => f());
  child.stdout.on('data', (c) => {
    out += c;
    tick();
  });
  child.stderr.on('data', (c) => {
    err += c;
    tick();
  });
  const exited = new Promise<number>((resolve) =>
    child.on('close', (code, signal) => {
      tick();
      resolve(code ?? (signal ? 128 : 1));
    }),
  );
  const until = (cond: () => boolean, what: string, ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`timed out waiting for ${what}; stdout=${JSON.stringify(out)} stderr=${JSON.stringify(err)}`),
          ),
        ms,
      );
      const check = () => {
        if (cond()) {
          clearTimeout(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearTimeout(timer);
          reject(
            new Error(
              `listener exited (${child.exitCode}) before ${what}; stdout=${JSON.stringify(out)} stderr=${JSON.stringify(err)}`,
            ),
          );
        } else ticks.push(check);
      };
      check();
    });
  const lines = () => out.split('\n').filter((l) => l.trim() !== '');
  const l: Listener = {
    child,
    url: '',
    port: 0,
    stdout: () => out,
    stderr: () => err,
    events: () => lines().map((x) => JSON.parse(x)),
    async waitForStdoutLines(n, ms = 5_000) {
      await until(() => lines().length >= n, `${n} stdout lines`, ms);
      return lines();
    },
    waitForStderr: (re, ms = 5_000) => until(() => re.test(err), String(re), ms),
    exited,
    kill: (signal = 'SIGINT') => void child.kill(signal),
  };
  await l.waitForStderr(/listening on http:\/\/127\.0\.0\.1:(\d+)/, 10_000);
  l.port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err)![1]);
  l.url = `http://127.0.0.1:${l.port}`;
  return l;
}

export async function post(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, text: await res.text() };
}

/** Ctrl-C to a listener still running; its exit code. */
export async function stopListener(l: Listener): Promise<number> {
  if (l.child.exitCode === null) l.kill('SIGINT');
  return l.exited;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
