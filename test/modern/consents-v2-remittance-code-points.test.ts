// The template's remittanceInformation (reference: maxLength 18, unstructured: maxLength 140) counted
// as JSON Schema counts, in code points, on both sides: `consents v2 create --reference` with 18 emoji
// was exit 2 ("got 36") and the sandbox answered such a body 400, both counting UTF-16 units.
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { postVrpConsent, vrpCreateArgs } from '../helpers/consents-v2-create.js';

const sb = useSandbox({ user: true });
const app = () => ({ ...sb.env, BANKCTL_USER: undefined });
const PROVIDER = 'se-test-open-banking-redirect';
const emoji = (n: number) => '😀'.repeat(n);

/** The wire: POST /connectivity/v2/consents with this remittanceInformation, as the app. */
const post = (remittanceInformation: Record<string, unknown>, key: string) =>
  postVrpConsent(sb.t.sandbox, { userId: sb.userId, providerId: PROVIDER, key, userExtra: { remittanceInformation } });

describe('sandbox: remittanceInformation counted in code points', () => {
  test('reference: 18 emoji are a consent (201), 19 a 400 naming the field', async () => {
    const ok = await post({ reference: emoji(18) }, 'ref-18');
    expect(ok.status, ok.text).toBe(201);
    const tooLong = await post({ reference: emoji(19) }, 'ref-19');
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('remittanceInformation.reference must be a string of 1 to 18 characters');
  });

  test('unstructured: 140 emoji are a consent (201), 141 a 400 naming the field', async () => {
    const ok = await post({ reference: 'R', unstructured: emoji(140) }, 'text-140');
    expect(ok.status, ok.text).toBe(201);
    const tooLong = await post({ reference: 'R', unstructured: emoji(141) }, 'text-141');
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('remittanceInformation.unstructured must be a string of 1 to 140 characters');
  });
});

describe('consents v2 create --reference/--remittance-text against the sandbox: the same count on both sides', () => {
  const args = (...more: string[]) => vrpCreateArgs(PROVIDER, sb.userId, '--payee-name', 'Savings', ...more);
  const list = async () => (await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout;

  test('18 emoji as --reference and 140 as --remittance-text: the consent is created with them', async () => {
    const r = await runCli(args('--reference', emoji(18), '--remittance-text', emoji(140)), { env: app() });
    expect(r.code, r.stderr).toBe(0);
    const up = JSON.parse(r.stdout).financialServiceParameters.userParameters;
    expect(up.remittanceInformation).toEqual({ reference: emoji(18), unstructured: emoji(140) });
  });

  test('19 emoji as --reference: exit 2 from the CLI counting 19, nothing created', async () => {
    const before = await list();
    const r = await runCli(args('--reference', emoji(19)), { env: app() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--reference must be 1 to 18 characters, got 19');
    expect(await list()).toBe(before);
  });

  test('141 emoji as --remittance-text: exit 2 from the CLI counting 141, nothing created', async () => {
    const before = await list();
    const r = await runCli(args('--reference', 'R', '--remittance-text', emoji(141)), { env: app() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--remittance-text must be 1 to 140 characters, got 141');
    expect(await list()).toBe(before);
  });
});
