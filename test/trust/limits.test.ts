// Bounds: a response body is read only up to a limit (64 MiB, --max-response-size), an error body
// up to 64 KiB, and nothing over the limit is downloaded twice; --timeout, --retries and page
// sizes outside their range are usage errors naming the range, before anything is sent.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, runCli, spawnCli, tempDir } from '../helpers/cli.js';

interface Hostile {
  url: string;
  requests: string[];
  /** Bytes of body the server managed to hand to the socket, per request. */
  sent: number[];
  close(): Promise<void>;
}

/** A server whose every non-token answer is `status` with a body of `bytes` bytes of a JSON array, streamed. */
async function hugeBodies(status: number, bytes: number): Promise<Hostile> {
  const requests: string[] = [];
  const sent: number[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/api/v1/oauth/token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'tok-0123456789', expires_in: 1800, scope: 'x' }));
      return;
    }
    const i = sent.push(0) - 1;
    res.writeHead(status, { 'content-type': 'application/json' });
    stream(res, bytes, (n) => (sent[i] = n));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    sent,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function stream(res: ServerResponse, total: number, progress: (n: number) => void): void {
  const chunk = Buffer.from(`${'{"name":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},'.repeat(1024)}`);
  let n = 0;
  res.write('[');
  n++;
  const pump = () => {
    while (n + chunk.length < total) {
      n += chunk.length;
      progress(n);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('{"name":"end"}]');
  };
  res.on('close', () => progress(n));
  pump();
}

const servers: Hostile[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const env = (base: string, extra: Record<string, string> = {}) => ({
  BANKCTL_CONFIG_DIR: tempDir(),
  BANKCTL_BASE_URL: base,
  BANKCTL_CLIENT_ID: 'id',
  BANKCTL_CLIENT_SECRET: 'secret-value',
  ...extra,
});

/** Runs bankctl and follows its resident memory (Linux /proc) while it runs. */
function runWatched(
  args: string[],
  e: Record<string, string>,
): Promise<{ code: number; stderr: string; maxRssMB: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...e } });
    let stderr = '';
    let maxRss = 0;
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setInterval(() => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) maxRss = Math.max(maxRss, Number(m[1]) / 1024);
      } catch {
        // gone, or no /proc
      }
    }, 20);
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearInterval(timer);
      clearTimeout(kill);
      resolve({ code: code ?? 137, stderr, maxRssMB: maxRss });
    });
  });
}

describe('response size', () => {
  test('a 500 MB answer is refused while it streams (exit 7), memory stays low, and it is not fetched again', async () => {
    const s = await hugeBodies(200, 500 * 1024 * 1024);
    servers.push(s);
    const started = Date.now();
    const r = await runWatched(['providers', 'list', '-o', 'json'], env(s.url, { BANKCTL_RETRIES: '3' }));
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/larger than 64 MiB/);
    expect(r.stderr).toMatch(/--max-response-size/);
    expect(s.requests.filter((x) => x.startsWith('GET'))).toHaveLength(1);
    // the server got rid of 64 MiB and what the socket buffers hold, not 500
    expect(s.sent[0]!).toBeLessThan(100 * 1024 * 1024);
    if (r.maxRssMB > 0) expect(r.maxRssMB).toBeLessThan(400);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  test('--max-response-size (and the environment) set the limit; a bad size is a usage error', async () => {
    const s = await hugeBodies(200, 200 * 1024);
    servers.push(s);
    const small = await spawnCli(['providers', 'list', '-o', 'json', '--max-response-size', '64KiB'], {
      env: env(s.url),
    });
    expect(small.code).toBe(7);
    expect(small.stderr).toMatch(/larger than 64 KiB/);
    const viaEnv = await spawnCli(['providers', 'list', '-o', 'json'], {
      env: env(s.url, { BANKCTL_MAX_RESPONSE_SIZE: '1MiB' }),
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    const bad = await runCli(['providers', 'list', '--max-response-size', 'lots'], { env: env(s.url) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/from 1KiB to 512MiB/);
  });

  test('a body whose Content-Length is over the limit: the one error line and exit 7, no crash after it', async () => {
    const body = JSON.stringify({ providers: [{ name: 'x'.repeat(4000) }] });
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const args of [
        ['providers', 'list', '--market', 'SE'],
        ['api', 'GET', '/api/v1/providers/SE'],
      ]) {
        const r = await spawnCli([...args, '--max-response-size', '1KiB'], { env: env(url) });
        expect(r.code, r.stderr).toBe(7);
        expect(r.stderr).toMatch(/^error: GET \S+: the response is larger than 1 KiB; it was not read \(.*\)\n$/);
        expect(r.stdout).toBe('');
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  test('an error body is read up to 64 KiB, on each of the retries', async () => {
    const s = await hugeBodies(503, 200 * 1024 * 1024);
    servers.push(s);
    const r = await runWatched(['providers', 'list', '-o', 'json'], env(s.url, { BANKCTL_RETRIES: '2' }));
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/HTTP 503/);
    expect(s.sent).toHaveLength(3);
    for (const n of s.sent) expect(n).toBeLessThan(32 * 1024 * 1024);
    if (r.maxRssMB > 0) expect(r.maxRssMB).toBeLessThan(300);
  }, 60_000);
});

describe('numbers out of range are usage errors naming the range, and nothing is sent', () => {
  test.each([
    [
      ['--timeout', '99999999999'],
      /timeout must be a number of seconds from 0\.001 to 86400, got "99999999999" \(from --timeout\)/,
    ],
    [['--timeout', '1e9'], /timeout must be a number of seconds from 0\.001 to 86400/],
    [['--timeout', '0'], /timeout must be a number of seconds from 0\.001 to 86400/],
    [['--retries', '99999999999'], /retries must be a whole number from 0 to 100/],
    [['--retries', '1e9'], /retries must be a whole number from 0 to 100/],
    [['--retries', '2.5'], /retries must be a whole number from 0 to 100/],
  ])('%j', async (flags, message) => {
    const s = await hugeBodies(200, 10);
    servers.push(s);
    const r = await runCli(['providers', 'list', ...(flags as string[])], { env: env(s.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(s.requests).toEqual([]);
  });

  test('the environment too, named', async () => {
    const r = await runCli(['providers', 'list'], { env: env('http://127.0.0.1:9', { BANKCTL_TIMEOUT: '1e9' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(from BANKCTL_TIMEOUT)');
  });

  test.each([
    [['transactions', 'list', '--page-size', '1e9'], /--page-size must be a whole number from 1 to 100, got "1e9"/],
    [
      ['transactions', 'list', '--page-size', '99999999999'],
      /--page-size must be a whole number from 1 to 100, got 99999999999/,
    ],
    [
      ['transactions', 'list', '--limit', '99999999999'],
      /--limit must be a whole number from 1 to 100000000, got 99999999999/,
    ],
    [['transactions', 'list', '--limit', '1e9'], /--limit must be a whole number from 1 to 100000000/],
    [['search', 'coffee', '--limit', '1e9'], /--limit must be a whole number from 1 to 1000/],
  ])('%j', async (args, message) => {
    const r = await runCli(args as string[], { env: env('http://127.0.0.1:9') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
  });
});
