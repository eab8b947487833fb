// A connector (or bearer) token a header cannot carry, such as the CR a token file with Windows
// line ends leaves: exit 2 naming where it came from, nothing sent, the token not shown. It was taken
// for a network error (undici's refusal), retried, and exit 8.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

let server: Server;
let base = '';
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const env = (extra: Record<string, string>) => ({ BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, ...extra });

describe('a token an HTTP header cannot carry', () => {
  test.each([
    ['a CR at the end', 'SEKRET-ct-1\r', 'line break'],
    ['a line feed inside', 'SEKRET\nct-2', 'line break'],
    ['a character outside ASCII', 'SEKRET-ct-é', 'cannot carry'],
  ])('connector token with %s: exit 2, nothing sent', async (_name, token, why) => {
    requests = 0;
    const r = await spawnCli(['connector', 'accounts', 'delete', 'acc-1', '--user', 'alice', '--yes'], {
      env: env({ BANKCTL_CONNECTOR_TOKEN: token }),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(requests).toBe(0);
    expect(r.stderr).toContain('the connector token (--connector-token, BANKCTL_CONNECTOR_TOKEN');
    expect(r.stderr).toContain(why);
    expect(r.stderr).not.toContain('SEKRET');
  });

  test('a bearer token with a CR: exit 2, nothing sent', async () => {
    requests = 0;
    const r = await spawnCli(['connector', 'users', 'delete', 'alice', '--yes'], {
      env: env({ BANKCTL_TOKEN: 'SEKRET-bearer\r' }),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(requests).toBe(0);
    expect(r.stderr).toContain('the bearer token (--token, BANKCTL_TOKEN');
    expect(r.stderr).not.toContain('SEKRET');
  });

  test('a good token is sent as it is', async () => {
    requests = 0;
    const r = await spawnCli(['connector', 'users', 'delete', 'alice', '--yes'], {
      env: env({ BANKCTL_CONNECTOR_TOKEN: 'good-token_1.2~3' }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(requests).toBe(1);
  });
});
