// consents v2 create: --payee-name and --payer-name beyond the template's 35 characters (payeeAccount.name,
// payerAccount.holderName: maxLength 35) are exit 2 naming the flag and the limit, before anything is
// sent; the service's 400 came only after the round trip. A node:http server on loopback counts requests.
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { createArgs, useScriptedServer, VRP_LIMITS } from '../helpers/consents-v2-create.js';
import { readyTokenEnv } from '../helpers/scripted-server.js';

const args = (...more: string[]) =>
  createArgs(...VRP_LIMITS, '--payee-number', '10000031510604', '-o', 'json', ...more);
const serve = useScriptedServer();

describe('consents v2 create: account names within the template', () => {
  test.each([
    ['--payee-name of 36 characters', ['--payee-name', 'N'.repeat(36)], '--payee-name must be 1 to 35 characters', 36],
    [
      '--payer-name of 36 characters',
      ['--payee-name', 'Savings', '--payer-name', 'P'.repeat(36), '--payer-number', '1'],
      '--payer-name must be 1 to 35 characters',
      36,
    ],
    [
      'an empty --payer-name',
      ['--payee-name', 'Savings', '--payer-name', '', '--payer-number', '1'],
      '--payer-name must be 1 to 35 characters',
      0,
    ],
  ])('%s: exit 2 naming the flag and the limit, nothing sent', async (_what, more, message, got) => {
    const s = await serve();
    const r = await spawnCli(args(...more), { env: readyTokenEnv(s.url) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${message} (the template's `);
    expect(r.stderr).toContain(`got ${got}`);
    expect(r.stdout).toBe('');
    expect(s.seen).toHaveLength(0);
  });

  test.each([
    ['--payer-name without --payer-number', ['--payer-name', 'Alice']],
    ['--payer-number without --payer-name', ['--payer-number', '1']],
    ['an empty --payer-number', ['--payer-name', 'Alice', '--payer-number', '']],
  ])('%s: exit 2, not a consent without its payer account', async (_what, more) => {
    const s = await serve();
    const r = await spawnCli(args('--payee-name', 'Savings', ...more), { env: readyTokenEnv(s.url) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--payer-name and --payer-number go together');
    expect(s.seen).toHaveLength(0);
  });

  test('35 characters, counted as characters (é is one): sent as given', async () => {
    const s = await serve();
    const name = 'é'.repeat(35);
    const r = await spawnCli(args('--payee-name', name), { env: readyTokenEnv(s.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(s.seen).toHaveLength(1);
    expect(JSON.parse(s.seen[0]!.body).financialServiceParameters.userParameters.payeeAccount.name).toBe(name);
  });
});
