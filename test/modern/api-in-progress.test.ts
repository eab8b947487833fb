// `bankctl api` with -H Idempotency-Key gets the HTTP core's retries of a 409 "a request with this
// Idempotency-Key is still being processed" too; still in progress after --retries, its hint names the
// -H header to run again with (the consents verbs name --idempotency-key, which `api` has not).
// A node:http server on loopback plays the service.
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { useScriptedServer } from '../helpers/consents-v2-create.js';
import { readyTokenEnv, reply } from '../helpers/scripted-server.js';

const inProgress = reply(
  409,
  JSON.stringify({
    errorCode: 'request.in_progress',
    errorMessage: 'a request with this Idempotency-Key is still being processed; retry once it has answered',
  }),
);
const post = ['api', 'POST', '/connectivity/v2/consents', '-f', 'providerId=uk-ob-barclays'];

const serve = useScriptedServer();

describe('bankctl api -H Idempotency-Key while the first request with that key is being processed', () => {
  test('still in progress after --retries: exit 5, the hint names the same -H header, not --idempotency-key', async () => {
    const s = await serve([inProgress]);
    const r = await spawnCli([...post, '-H', 'Idempotency-Key: my-key-7'], {
      env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '1' },
    });
    expect(r.code, r.stderr).toBe(5);
    expect(s.seen.map((x) => x.headers['idempotency-key'])).toEqual(['my-key-7', 'my-key-7']);
    expect(r.stderr).toContain("run the same command again with the same -H 'Idempotency-Key: my-key-7' header");
    expect(r.stderr).not.toContain('--idempotency-key');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  test('a key with a quote in it: the -H word of the hint pastes back into a shell as the same header', async () => {
    const s = await serve([inProgress]);
    const r = await spawnCli([...post, '-H', "Idempotency-Key: it's-7"], {
      env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '0' },
    });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(`with the same -H 'Idempotency-Key: it'\\''s-7' header`);
  }, 30_000);

  test('without the header: answered at once, no hint about a key', async () => {
    const s = await serve([inProgress]);
    const r = await spawnCli(post, { env: { ...readyTokenEnv(s.url), BANKCTL_RETRIES: '1' } });
    expect(r.code, r.stderr).toBe(5);
    expect(s.seen).toHaveLength(1);
    expect(r.stderr).not.toContain('Idempotency-Key: ');
    expect(r.stderr).not.toContain('--idempotency-key');
  }, 30_000);
});
