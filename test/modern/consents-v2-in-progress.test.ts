// consents v2 writes answered 409 "a request with this Idempotency-Key is still being processed" (the
// sandbox's request.in_progress, the reference's "Request retried while the original request is still
// being processed"): sent again with the same key, bounded by --retries, then exit 5 naming the key to
// rerun with. Any other 409 is answered at once. A node:http server on loopback plays the service.
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { created, createArgs, useScriptedServer, VRP_LIMITS } from '../helpers/consents-v2-create.js';
import { readyTokenEnv, reply } from '../helpers/scripted-server.js';

const create = createArgs(...VRP_LIMITS, '--payee-name', 'Savings', '--payee-number', '10000031510604', '-o', 'json');
const inProgress = reply(
  409,
  JSON.stringify({
    errorCode: 'request.in_progress',
    errorMessage: 'a request with this Idempotency-Key is still being processed; retry once it has answered',
  }),
);

const serve = useScriptedServer();

describe('consents v2 create while the first request with its key is still being processed', () => {
  test('409 request.in_progress twice, then 201: the consent, every attempt with the one key', async () => {
    const s = await serve([inProgress, inProgress, created]);
    const r = await spawnCli(create, { env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '3' } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'c-1' });
    expect(s.seen).toHaveLength(3);
    const keys = new Set(s.seen.map((x) => x.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toContain('still being processed), retrying in 1.0s (retry 1 of 3)');
  }, 30_000);

  test("the reference's wording without the code, and a given --idempotency-key: sent again with it", async () => {
    const s = await serve([
      reply(
        409,
        JSON.stringify({ errorMessage: 'Request retried while the original request is still being processed' }),
      ),
      created,
    ]);
    const r = await spawnCli([...create, '--idempotency-key', 'my-key-1'], {
      env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '3' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(s.seen.map((x) => x.headers['idempotency-key'])).toEqual(['my-key-1', 'my-key-1']);
  }, 30_000);

  test('still in progress after --retries: exit 5 naming the key to run again with', async () => {
    const s = await serve([inProgress]);
    const r = await spawnCli(create, { env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '2' } });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(s.seen).toHaveLength(3);
    const key = s.seen[0]!.headers['idempotency-key'] as string;
    expect(s.seen.every((x) => x.headers['idempotency-key'] === key)).toBe(true);
    expect(r.stderr).toContain('HTTP 409');
    expect(r.stderr).toContain(`run the same command again with --idempotency-key ${key} to get its answer`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  test('another 409 (an authorization already running) is answered at once, not sent again', async () => {
    const s = await serve([
      reply(
        409,
        JSON.stringify({
          errorCode: 'authorization.in_progress',
          errorMessage: 'authorization "a1" of this consent is in progress',
        }),
      ),
      reply(202, JSON.stringify({ authorization: { id: 'a2', state: 'ONGOING' } })),
    ]);
    const r = await spawnCli(['consents', 'v2', 'authorize', 'c1'], {
      env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '3' },
    });
    expect(r.code, r.stderr).toBe(5);
    expect(s.seen).toHaveLength(1);
    expect(r.stderr).not.toContain('--idempotency-key');
  }, 30_000);
});
