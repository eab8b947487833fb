import { afterAll, beforeAll, describe, expect } from 'vitest';
import { newCmdResend } from '../../../src/commands/webhooks/resend.js';
import { verifySignature } from '../../../src/contract/webhook-signature.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { startReceiver, type Receiver } from '../../webhooks/helpers.js';

const sb = useSandbox();
let rx: Receiver;
let secret = '';
let deliveryId = '';

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => rx.close());

describe('webhooks resend', () => {
  optionCases('webhooks resend', newCmdResend, [
    { name: 'the delivery id', args: ['d1'], options: { id: 'd1' } },
    { name: 'no id', args: [], code: 2, stderr: /missing required argument/ },
  ]);
  cliCases('webhooks resend', () => sb.env, [
    {
      name: 'the same body again, freshly signed, as a new delivery',
      before: async () => {
        const c = await runCli(
          ['webhooks', 'endpoints', 'create', '--url', `${rx.url}/in`, '--event', 'refresh:finished', '-o', 'json'],
          { env: sb.env },
        );
        secret = JSON.parse(c.stdout).secret;
        expect((await runCli(['sandbox', 'trigger', 'refresh:finished'], { env: sb.env })).code).toBe(0);
        await rx.waitFor(1);
        const list = await runCli(['webhooks', 'deliveries', '-o', 'json'], { env: sb.env });
        deliveryId = JSON.parse(list.stdout)[0].id;
      },
      args: () => [deliveryId, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ resendOf: deliveryId, event: 'refresh:finished' }),
      stderr: /resending delivery/,
      after: async () => {
        await rx.waitFor(2);
        expect(rx.received[1]!.body).toBe(rx.received[0]!.body);
        const check = verifySignature(
          rx.received[1]!.headers['x-tink-signature'],
          Buffer.from(rx.received[1]!.body),
          secret,
          Date.now(),
        );
        expect(check.ok).toBe(true);
      },
    },
    { name: 'an unknown delivery is exit 4', args: ['nope'], code: 4, stderr: /delivery nope not found/ },
    {
      name: 'a profile that points at another service: exit 2',
      args: ['d1'],
      env: { BANKCTL_BASE_URL: 'https://api.bank.example' },
      code: 2,
      stderr: /`webhooks resend` needs the bankctl sandbox/,
    },
  ]);
});
