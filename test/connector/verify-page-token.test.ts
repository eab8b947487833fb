// connector verify follows every page of the read-back: a page whose nextPageToken is missing or
// not a string is not the endpoint's answer (exit 7), never the end of the read-back, which would
// report transactions that are on the service as missing. A proxy in front of the sandbox takes
// the token out of the pages (everything else passes unchanged).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, userWithAccounts, writeNdjson } from './helpers.js';

let t: TestEnv;
let proxy: Server;
let mode: 'pass' | 'drop' | 'null' | 'accounts-down' = 'pass';
let proxyUrl = '';

beforeAll(async () => {
  t = await startTestSandbox();
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      if (mode === 'accounts-down' && req.url!.startsWith('/api/v1/accounts/list')) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"errorMessage":"down for maintenance"}');
        return;
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const r = await fetch(`${t.sandbox.baseUrl}${req.url}`, { method: req.method, headers, body });
      let text = await r.text();
      if (req.url!.startsWith('/data/v2/transactions') && r.status === 200 && (mode === 'drop' || mode === 'null')) {
        const page = JSON.parse(text);
        if (mode === 'drop') delete page.nextPageToken;
        else page.nextPageToken = null;
        text = JSON.stringify(page);
      }
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  await t.close();
});

describe('verify and the read-back pages', () => {
  test('a page without a string nextPageToken is exit 7; as served, verify matches', async () => {
    await userWithAccounts(t, 'vpt', 1);
    const file = writeNdjson(tempDir(), 'v.ndjson', makeTxs(250, { prefix: 'vpt' }));
    const env = { ...t.env, BANKCTL_BASE_URL: proxyUrl, BANKCTL_CONFIG_DIR: tempDir() };
    const pushed = await spawnCli(['connector', 'push', '--user', 'vpt', '--file', file, '-q'], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    mode = 'pass';
    const ok = await spawnCli(['connector', 'verify', '--user', 'vpt', '--file', file, '-o', 'json'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    for (const m of ['drop', 'null'] as const) {
      mode = m;
      const v = await spawnCli(['connector', 'verify', '--user', 'vpt', '--file', file, '-o', 'json'], { env });
      expect(v.code, `${m}: ${v.stderr}`).toBe(7);
      expect(v.stderr).toMatch(/GET \/data\/v2\/transactions answered a page with .*nextPageToken/);
    }
  });

  test('an account list that fails is said, and the accounts are paired by the samples', async () => {
    await userWithAccounts(t, 'vad', 2);
    const file = writeNdjson(tempDir(), 'v.ndjson', makeTxs(120, { prefix: 'vad', accounts: 2 }));
    const env = { ...t.env, BANKCTL_BASE_URL: proxyUrl, BANKCTL_CONFIG_DIR: tempDir() };
    mode = 'pass';
    const pushed = await spawnCli(['connector', 'push', '--user', 'vad', '--file', file, '-q'], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    mode = 'accounts-down';
    const v = await spawnCli(['connector', 'verify', '--user', 'vad', '--file', file, '-o', 'json', '--retries', '0'], {
      env,
    });
    mode = 'pass';
    // before, the 503 was swallowed without a word
    expect(v.stderr).toMatch(
      /the user's accounts could not be listed \(.*HTTP 503.*\); accounts are paired by the file's samples/,
    );
    expect(v.code, v.stderr).toBe(0);
    const rows = JSON.parse(v.stdout) as Array<{ ok: boolean }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.ok)).toBe(true);
  });
});
