// consents v2 create --parameters FILE: the file is financialServiceParameters whole, so a VRP flag
// given beside it (--payee-name, --max-amount, ...) was dropped without a word and the consent created
// from the file alone, exit 0. Now that is exit 2 naming the flags, before anything is read or sent.
// A node:http server on loopback counts requests.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { createArgs, useScriptedServer, vrpParameters } from '../helpers/consents-v2-create.js';
import { readyTokenEnv } from '../helpers/scripted-server.js';

const params = join(mkdtempSync(join(tmpdir(), 'bankctl-params-')), 'params.json');
writeFileSync(params, JSON.stringify(vrpParameters({ payeeNumber: '10000031510604' })));
const args = (...more: string[]) => createArgs('--parameters', params, '-o', 'json', ...more);
const serve = useScriptedServer();

describe('consents v2 create --parameters FILE with VRP flags', () => {
  test.each([
    ['--payee-name', ['--payee-name', 'Other'], '--payee-name would be ignored'],
    [
      'several flags',
      ['--max-amount', '5000', '--payee-name', 'Other', '--limit', 'MONTH=1', '--reference', 'R'],
      '--max-amount, --limit, --payee-name, --reference would be ignored',
    ],
    ['an empty --payer-name', ['--payer-name', ''], '--payer-name would be ignored'],
    ['--valid-to', ['--valid-to', '2099-01-01'], '--valid-to would be ignored'],
  ])('%s: exit 2 naming the flags, nothing sent', async (_what, more, message) => {
    const s = await serve();
    const r = await spawnCli(args(...more), { env: readyTokenEnv(s.url) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--parameters gives financialServiceParameters whole: ${message}`);
    expect(r.stdout).toBe('');
    expect(s.seen).toHaveLength(0);
  });

  test('--parameters alone (with --subtype, which is not a parameter): sent as the file has it', async () => {
    const s = await serve();
    const r = await spawnCli(args('--subtype', 'vrp_sweeping'), { env: readyTokenEnv(s.url) });
    expect(r.code, r.stderr).toBe(0);
    expect(s.seen).toHaveLength(1);
    const body = JSON.parse(s.seen[0]!.body);
    expect(body.financialServiceParameters.userParameters.payeeAccount.name).toBe('Savings');
    expect(body.financialService.subtype).toBe('VRP_SWEEPING');
  });
});
