// A push reads its file twice (checked, then sent): a file written to while it is being sent must
// stop the push with an error, not send lines nobody checked and exit 0.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, ndjsonLine, userWithAccounts, writeNdjson } from './helpers.js';

let env: TestEnv;
let proxy: Server;
let proxyUrl: string;
/** Runs once, when the first ingest request reaches the proxy. */
let onFirstIngest: (() => void) | undefined;

beforeAll(async () => {
  env = await startTestSandbox();
  const target = new URL(env.sandbox.baseUrl);
  // a loopback proxy in front of the sandbox: it changes the input file while the push is sending
  proxy = createServer((req, res) => {
    if (req.method === 'POST' && /\/connector\/users\/[^/]+\/transactions$/.test(req.url ?? '') && onFirstIngest) {
      const f = onFirstIngest;
      onFirstIngest = undefined;
      f();
    }
    const up = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((ok) => proxy.close(ok));
  await env.close();
});

describe('connector push of a file that changes while it is being read', () => {
  test('a line appended while the first chunk is in flight: exit 2 naming the file, the unchecked line never sent', async () => {
    const user = 'changing';
    await userWithAccounts(env, user, 1);
    const file = writeNdjson(tempDir(), 'growing.ndjson', makeTxs(10_000));
    onFirstIngest = () =>
      appendFileSync(
        file,
        `${ndjsonLine({ account: 'acc-0', externalId: 'late-1', amount: '-1.00', date: 1_700_000_000_000, description: 'late', type: 'DEFAULT' }, '0')}\n`,
      );
    const r = await runCli(['connector', 'push', '--user', user, '--file', file, '--concurrency', '1'], {
      env: { ...env.env, BANKCTL_BASE_URL: proxyUrl },
    });
    expect(r.stderr).toContain('growing.ndjson changed while it was being sent');
    expect(r.code).toBe(2);
    const u = env.sandbox.store.userByExternalId(user)!;
    const stored = [...env.sandbox.store.transactions.values()].filter((t) => t.userId === u.id);
    expect(stored.some((t) => t.externalId === 'late-1')).toBe(false);
    expect(stored.length).toBeLessThan(10_000);
  });
});
