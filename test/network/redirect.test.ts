// A redirect is not what an API endpoint answers: bankctl follows none (the Authorization header
// must not travel to another host), and says where it pointed, exit 7, not exit 1 ("a bug").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

let server: Server;
let other: Server;
let base = '';
let elsewhere = '';
let reachedElsewhere = 0;

beforeAll(async () => {
  other = createServer((_req, res) => {
    reachedElsewhere++;
    res.end('{}');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}/steal`;
  server = createServer((_req, res) => {
    res.writeHead(302, { location: `${elsewhere}?x=\u009b31m` });
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
});

describe('a redirect', () => {
  test('exit 7 naming where it pointed; not followed; no control bytes', async () => {
    const r = await runCli(['accounts', 'list'], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, BANKCTL_TOKEN: 'tok_redirect_123' },
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/HTTP 302/);
    expect(r.stderr).toContain(`the service redirected to ${elsewhere}`);
    expect(r.stderr).toMatch(/follows no redirect/);
    expect(r.stderr).not.toContain('\u009b');
    expect(reachedElsewhere).toBe(0);
  });
});

describe('a redirect that carries a token', () => {
  test('in the query or the fragment (#access_token=): the hint shows where, not the token', async () => {
    const s = createServer((req, res) => {
      const to = req.url!.includes('hash')
        ? 'https://cb.example/done#access_token=fr4gment-t0ken&state=s1&token_type=bearer'
        : 'https://cb.example/done?code=qu3ry-c0de-1&state=s1';
      res.writeHead(302, { location: to }).end();
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    try {
      const env = {
        BANKCTL_CONFIG_DIR: tempDir(),
        BANKCTL_BASE_URL: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
        BANKCTL_TOKEN: 'tok_redirect_123',
      };
      for (const path of ['/hash', '/query']) {
        const r = await runCli(['api', 'GET', path, '--as', 'user'], { env });
        expect(r.code, r.stderr).toBe(7);
        expect(r.stderr).toContain('the service redirected to https://cb.example/done');
        expect(r.stderr).toContain('state=s1');
        expect(r.stderr).not.toContain('fr4gment-t0ken');
        expect(r.stderr).not.toContain('qu3ry-c0de-1');
      }
    } finally {
      await new Promise((r) => s.close(r));
    }
  });
});

describe('an id that is a path step', () => {
  test('"." and ".." are refused before any request (exit 2): the URL would name another resource', async () => {
    let hits = 0;
    const s = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    try {
      const env = {
        BANKCTL_CONFIG_DIR: tempDir(),
        BANKCTL_BASE_URL: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
        BANKCTL_TOKEN: 'tok_dots_123',
      };
      for (const args of [
        ['accounts', 'get', '..'],
        ['credentials', 'get', '.'],
      ]) {
        const r = await runCli(args, { env });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/is not a valid id: a URL reads it as a path step/);
      }
      expect(hits).toBe(0);
    } finally {
      await new Promise((r) => s.close(r));
    }
  });
});
