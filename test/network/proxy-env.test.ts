// The proxy variables as CI images set them: "host:port" without a scheme, a socks5:// proxy, and
// NO_PROXY with IP blocks (10.0.0.0/8), against a tiny node:http server and forward proxy on loopback.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startProxy } from '../helpers/proxy.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer(() => reply(200, '{"version":"1.0"}'));
});
afterAll(() => server.close());

const call = (env: Record<string, string>) =>
  spawnCli(['api', 'GET', '/version', '--as', 'none', '--retries', '0'], {
    env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, ...env },
  });

describe('proxy variables', () => {
  test('a proxy given as host:port (no scheme) is an http proxy, as curl reads it', async () => {
    const proxy = await startProxy();
    try {
      const r = await call({ HTTP_PROXY: proxy.url.replace(/^http:\/\//, '') });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ version: '1.0' });
      expect([...proxy.connects, ...proxy.requests]).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  test('a proxy that is no http(s) URL is exit 2 naming the variable, without a stack or its password', async () => {
    const before = server.seen.length;
    const socks = await call({ HTTP_PROXY: 'socks5://user:s3cret@127.0.0.1:1080' });
    expect(socks.code).toBe(2);
    expect(socks.stderr).toMatch(
      /^error: HTTP_PROXY \("socks5:\/\/\*\*\*@127\.0\.0\.1:1080"\) is not an http:\/\/ or https:\/\/ proxy URL \(socks5 proxies are not supported\)\n$/,
    );
    expect(socks.stderr).not.toContain('s3cret');
    const bad = await call({ http_proxy: 'http://' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: http_proxy is not an http:\/\/ or https:\/\/ proxy URL\n$/);
    expect(server.seen).toHaveLength(before);
  });

  test('NO_PROXY with an IP block bypasses the proxy for addresses inside it', async () => {
    const down = { HTTP_PROXY: 'http://127.0.0.1:1' };
    const inside = await call({ ...down, NO_PROXY: 'example.com,127.0.0.0/8' });
    expect(inside.stderr).toBe('');
    expect(inside.code).toBe(0);
    const outside = await call({ ...down, NO_PROXY: '10.0.0.0/8' });
    expect(outside.code).toBe(8);
    expect(outside.stderr).toMatch(/via proxy http:\/\/127\.0\.0\.1:1 failed: connection refused/);
  });
});
