// An account verification report as the reference shows one, read through the CLI: the provider,
// its institution, the holder's identity and each account's type, from a connected test bank; and
// csv as one row per account with its balance exact.
import { expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { connectTestBank, useSandbox } from '../helpers/commands.js';
import { example } from '../conformance/replay.js';
import { runWithAnswer } from '../helpers/scripted-server.js';

const sb = useSandbox({ user: true });
const json = async (argv: string[]) => {
  const r = await runCli([...argv, '-o', 'json'], { env: sb.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

test("a report names the provider, its institution and the holder, with the reference's fields", async () => {
  const credentialsId = await connectTestBank(sb.env);
  const report = await json(['reports', 'create']);
  const provider = await json(['providers', 'get', 'se-test-password']);
  const [identity] = (await json(['identities', 'list'])) as { name: string; ssn: string; dateOfBirth: string }[];
  const accounts = (await json(['accounts', 'list'])) as { id: string; type: string; iban?: string }[];
  expect(report.userDataByProvider).toHaveLength(1);
  const p = report.userDataByProvider[0];
  // every field the reference's example has at this level (its identity has more than a name)
  const ref = (example('GET__api_v1_account-verification-reports_id').body as { userDataByProvider: object[] })
    .userDataByProvider[0]!;
  expect(Object.keys(p)).toEqual(expect.arrayContaining(Object.keys(ref)));
  expect(p).toMatchObject({
    credentialsId,
    providerName: 'se-test-password',
    financialInstitutionName: provider.financialInstitutionName,
    identity: { name: identity!.name, ssn: identity!.ssn, dateOfBirth: identity!.dateOfBirth },
  });
  expect(typeof p.updated).toBe('number');
  expect(p.accounts).toHaveLength(accounts.length);
  for (const a of p.accounts as {
    id: string;
    accountType: string;
    accountIdentifiers?: { iban: { iban: string } };
  }[]) {
    const v1 = accounts.find((x) => x.id === a.id)!;
    expect(a.accountType).toBe(v1.type);
    if (v1.iban) expect(a.accountIdentifiers?.iban.iban).toBe(v1.iban);
  }
});

test('csv: one row per account, the balance as its exact decimal and currency', async () => {
  const report = await json(['reports', 'create']);
  const r = await runCli(['reports', 'get', report.id, '-o', 'csv'], { env: sb.env });
  expect([r.code, r.stderr]).toEqual([0, '']);
  const [header, ...rows] = r.stdout.trim().split('\r\n');
  expect(header).toBe('report,provider,institution,account,name,type,accountNumber,iban,holder,balance,currency');
  const accounts = (await json(['accounts', 'list'])) as {
    id: string;
    currencyDenominatedBalance: { unscaledValue: number; scale: number; currencyCode: string };
  }[];
  expect(rows).toHaveLength(accounts.length);
  for (const row of rows) {
    const cells = row.split(',');
    const a = accounts.find((x) => x.id === cells[3])!;
    expect(cells[0]).toBe(report.id);
    expect(cells[1]).toBe('se-test-password');
    const b = a.currencyDenominatedBalance;
    const digits = String(Math.abs(b.unscaledValue)).padStart(b.scale + 1, '0');
    const decimal = `${b.unscaledValue < 0 ? '-' : ''}${digits.slice(0, -b.scale)}.${digits.slice(-b.scale)}`;
    expect(cells.slice(-2)).toEqual([decimal, b.currencyCode]);
  }
  expect(r.stdout).not.toContain('{');
});

test("the reference's report without the deprecated iban and holderName: csv reads its identifiers and parties, the table its reference and expiry", async () => {
  // the reference: holderName and iban "Removed after 2025-11-14"; the report lives 1h after creation
  const body = structuredClone(example('GET__api_v1_account-verification-reports_id').body) as {
    created: number;
    userDataByProvider: { accounts: Record<string, unknown>[] }[];
  };
  for (const a of body.userDataByProvider[0]!.accounts) {
    delete a.iban;
    delete a.holderName;
  }
  const dir = sb.env.BANKCTL_CONFIG_DIR!;
  const csv = await runWithAnswer(body, ['reports', 'get', 'r1', '-o', 'csv'], dir);
  expect([csv.code, csv.stderr]).toEqual([0, '']);
  const [header, row] = csv.stdout.trim().split('\r\n');
  const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
  expect(cells).toMatchObject({ iban: 'SE7921000813610123456789', holder: 'John Doe', type: 'SAVINGS' });
  const table = await runWithAnswer(body, ['reports', 'get', 'r1', '-o', 'table'], dir);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toContain('ext-abc-123');
  expect(table.stdout).toContain(new Date(body.created + 3_600_000).toISOString());
});
