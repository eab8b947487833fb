// `webhooks listen --forward-to` with Events v2 deliveries, as a partner wires it in front of their
// backend: an Events v2 body carries no secret, so the target can only verify it by the
// X-Tink-Signature it came with. The forward passes that header on unchanged.
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { signatureHeader, verifySignature } from '../../src/contract/webhook-signature.js';
import { post, spawnListener, startReceiver, stopListener as stop } from './helpers.js';

const SECRET = 'fwd-v2-secret';
let env: Record<string, string>;

beforeAll(() => {
  env = { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_WEBHOOK_SECRET: SECRET };
});

const BODY = JSON.stringify({
  context: { userId: 'u1' },
  content: { account: { id: 'a1' }, inserted: 2 },
  event: 'account-transactions:modified',
});

describe('webhooks listen --forward-to, Events v2', () => {
  test('the forwarded v2 body keeps its X-Tink-Signature, so the target can verify it', async () => {
    const target = await startReceiver();
    const l = await spawnListener(['--once', '--forward-to', `${target.url}/in`], env);
    try {
      const header = signatureHeader(SECRET, BODY, Date.now());
      const res = await post(l.url, BODY, { 'content-type': 'application/json', 'x-tink-signature': header });
      expect(res.status).toBe(200);
      const [got] = await target.waitFor(1);
      expect(got!.body).toBe(BODY);
      expect(got!.headers['x-tink-signature']).toBe(header);
      expect(
        verifySignature(got!.headers['x-tink-signature'], Buffer.from(got!.body), SECRET, Date.now()),
      ).toMatchObject({
        ok: true,
      });
      expect(await l.exited).toBe(0);
      expect(l.stderr()).toMatch(/forwarded account-transactions:modified to http:\/\/127\.0\.0\.1:\d+\/in: 200/);
    } finally {
      await stop(l);
      await target.close();
    }
  });

  test('a v1 body is forwarded without a signature header (it carries its secret itself)', async () => {
    const target = await startReceiver();
    const l = await spawnListener(['--once', '--forward-to', `${target.url}/in`], env);
    try {
      const v1 = JSON.stringify({ event: 'credentials:update', content: { id: 'c1' }, webHook: { secret: SECRET } });
      expect((await post(l.url, v1)).status).toBe(200);
      const [got] = await target.waitFor(1);
      expect(got!.body).toBe(v1);
      expect(got!.headers['x-tink-signature']).toBeUndefined();
      expect(await l.exited).toBe(0);
    } finally {
      await stop(l);
      await target.close();
    }
  });
});
