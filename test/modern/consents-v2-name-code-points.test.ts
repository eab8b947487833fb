// The template's account names (payeeAccount.name, payerAccount.holderName: maxLength 35) counted as
// JSON Schema counts them, in code points, on both sides: `consents v2 create` passed 35 emoji (35
// code points) and the sandbox then answered 400, counting 70 UTF-16 units. 36 are refused by both.
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { postVrpConsent, vrpCreateArgs } from '../helpers/consents-v2-create.js';

const sb = useSandbox({ user: true });
const app = () => ({ ...sb.env, BANKCTL_USER: undefined });
const PROVIDER = 'se-test-open-banking-redirect';
const emoji = (n: number) => '😀'.repeat(n);

/** The wire: POST /connectivity/v2/consents with these account parts, as the app. */
const post = (accounts: Record<string, unknown>, key: string) =>
  postVrpConsent(sb.t.sandbox, { userId: sb.userId, providerId: PROVIDER, key, userExtra: accounts });

describe('sandbox: account names of 35 code points', () => {
  test.each([
    ['payeeAccount.name', (n: number) => ({ payeeAccount: { name: emoji(n), number: '1' } })],
    [
      'payerAccount.holderName',
      (n: number) => ({ payerAccount: { holderName: emoji(n), number: '2', type: 'SORT_CODE' } }),
    ],
  ])('%s: 35 emoji are a consent (201), 36 a 400 naming the field', async (field, accounts) => {
    const ok = await post(accounts(35), `${field}-35`);
    expect(ok.status, ok.text).toBe(201);
    const tooLong = await post(accounts(36), `${field}-36`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain(`${field} is required: a string of 1 to 35 characters`);
  });
});

describe('consents v2 create against the sandbox: the same count on both sides', () => {
  const args = (...more: string[]) => vrpCreateArgs(PROVIDER, sb.userId, ...more);

  test('35 emoji as --payee-name and --payer-name: the consent is created with them', async () => {
    const r = await runCli(args('--payee-name', emoji(35), '--payer-name', emoji(35), '--payer-number', '2'), {
      env: app(),
    });
    expect(r.code, r.stderr).toBe(0);
    const up = JSON.parse(r.stdout).financialServiceParameters.userParameters;
    expect([up.payeeAccount.name, up.payerAccount.holderName]).toEqual([emoji(35), emoji(35)]);
  });

  test('36 emoji as --payee-name: exit 2 from the CLI, nothing created', async () => {
    const before = (await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout;
    const r = await runCli(args('--payee-name', emoji(36)), { env: app() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--payee-name must be 1 to 35 characters (the template's payeeAccount.name), got 36");
    expect((await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout).toBe(before);
  });
});
