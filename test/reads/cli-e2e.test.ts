// The read commands as a user runs them, in-process (run(argv, io)) against a sandbox on port 0: flags and
// output only, so no process is needed (test/foundation/exit-codes.test.ts spawns the binary).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx, demo, userToken } from './helpers.js';
import { userWithToken } from '../helpers/sandbox.js';

let t: TestEnv;
let user: string;
let env: Record<string, string>;
let accounts: ReturnType<typeof demo>;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 11 });
  ({ userId: user } = await userWithToken(t.sandbox, ['user:read']));
  accounts = demo(t.sandbox, user, 'cli');
  env = { ...t.env, BANKCTL_USER: user };
});
afterAll(() => t.close());

const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extra } });

describe('accounts', () => {
  it('accounts list: a table with exact balances and currency; csv with a header; json with the exact numbers sent', async () => {
    const table = await cli(['accounts', 'list', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const mortgage = accounts.find((a) => a.type === 'MORTGAGE')!;
    expect(table.stdout).toContain(`${mortgage.balance} SEK`);
    const csv = await cli(['accounts', 'list', '-o', 'csv']);
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,name,type,number,balance,currency,exclusion,favored');
    expect(lines).toHaveLength(6);
    const out = (await cli(['accounts', 'list', '-o', 'json'])).stdout;
    const json = JSON.parse(out);
    // a number stays a number, written with the digits the service sent (trailing zeros too)
    expect(typeof json.find((a: any) => a.id === mortgage.id).balance).toBe('number');
    expect(out).toContain(`"balance": ${mortgage.balance},`);
  });

  it('accounts update and balances; bad flags are usage errors naming the flag, missing ids exit 4', async () => {
    const acc = accounts.find((a) => a.type === 'SAVINGS')!;
    const up = await cli([
      'accounts',
      'update',
      acc.id,
      '--name',
      'Rainy day',
      '--exclusion',
      'pfm_data',
      '--favored',
      '-o',
      'json',
    ]);
    expect(up.code, up.stderr).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({ name: 'Rainy day', accountExclusion: 'PFM_DATA', favored: true });
    const bad = await cli(['accounts', 'update', acc.id, '--exclusion', 'EVERYTHING']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--exclusion/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const nothing = await cli(['accounts', 'update', acc.id]);
    expect(nothing.code).toBe(2);
    const bal = await cli(['accounts', 'balances', acc.id, '-o', 'csv']);
    expect(bal.stdout.split('\r\n')[0]).toBe('kind,amount,currency,refreshed');
    expect(bal.stdout).toMatch(new RegExp(`booked,${acc.balance.replace('.', '\\.')}0*,SEK`));
    const missing = await cli(['accounts', 'balances', 'nope']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/404/);
  });
});

describe('transactions list', () => {
  it('prints exact amounts: -0.05, large values, scale 0 and 3, in table, csv and ndjson', async () => {
    const a = addAccount(t.sandbox.store, user, { name: 'Exact' });
    addTx(t.sandbox.store, a, '-0.05', '2019-05-01', { description: 'tiny' });
    addTx(t.sandbox.store, a, '98765432109876543210.12', '2019-05-02', { description: 'huge' });
    addTx(t.sandbox.store, a, '250', '2019-05-03', { description: 'whole' });
    addTx(t.sandbox.store, a, '-1.005', '2019-05-04', { description: 'mils' });
    const csv = await cli([
      'transactions',
      'list',
      '--account',
      a.id,
      '--all',
      '-o',
      'csv',
      '--fields',
      'descriptions.display,amount',
    ]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(
      'descriptions.display,amount,currency\r\nmils,-1.005,SEK\r\nwhole,250.00,SEK\r\nhuge,98765432109876543210.12,SEK\r\ntiny,-0.05,SEK\r\n',
    );
    const table = await cli(['transactions', 'list', '--account', a.id, '-o', 'table']);
    expect(table.stdout).toContain('-0.05 SEK');
    expect(table.stdout).toContain('98765432109876543210.12 SEK');
    const nd = (await cli(['transactions', 'list', '--account', a.id, '-o', 'ndjson'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(nd.map((x) => x.amount.value)).toEqual([
      { scale: '3', unscaledValue: '-1005' },
      { scale: '0', unscaledValue: '250' },
      { scale: '2', unscaledValue: '9876543210987654321012' },
      { scale: '2', unscaledValue: '-5' },
    ]);
  });

  it('--all follows every page with the token passed on; --limit stops; without either, one page and a notice', async () => {
    const a = addAccount(t.sandbox.store, user, { name: 'Many' });
    for (let i = 0; i < 523; i++) addTx(t.sandbox.store, a, `${i}.00`, '2018-01-01');
    const all = await cli([
      'transactions',
      'list',
      '--account',
      a.id,
      '--all',
      '--page-size',
      '50',
      '-o',
      'ndjson',
      '-v',
    ]);
    expect(all.code, all.stderr).toBe(0);
    const ids = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(new Set(ids).size).toBe(523);
    const gets = all.stderr.split('\n').filter((l) => l.includes('GET') && l.includes('/data/v2/transactions'));
    expect(gets).toHaveLength(11);
    expect(gets.slice(1).every((l) => l.includes('pageToken='))).toBe(true);
    const limited = await cli(['transactions', 'list', '--account', a.id, '--limit', '120', '-o', 'ndjson']);
    expect(limited.stdout.trim().split('\n')).toHaveLength(120);
    const one = await cli(['transactions', 'list', '--account', a.id, '--page-size', '10', '-o', 'ndjson']);
    expect(one.stdout.trim().split('\n')).toHaveLength(10);
    expect(one.stderr).toMatch(/--all, or --page-token \S+/);
  });

  it('maps the filters to the query: repeatable --account and --status, --from/--to', async () => {
    const [c1, c2] = accounts;
    const r = await cli([
      'transactions',
      'list',
      '--account',
      c1!.id,
      '--account',
      c2!.id,
      '--status',
      'booked',
      '--status',
      'PENDING',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-28',
      '--page-size',
      '5',
      '-v',
      '-o',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const line = r.stderr.split('\n').find((l) => l.includes('/data/v2/transactions'))!;
    const q = new URL(line.split(' ')[2]!).searchParams;
    expect(q.getAll('accountIdIn')).toEqual([c1!.id, c2!.id]);
    expect(q.getAll('statusIn')).toEqual(['BOOKED', 'PENDING']);
    expect(q.get('bookedDateGte')).toBe('2025-01-01');
    expect(q.get('bookedDateLte')).toBe('2025-02-28');
    expect(q.get('pageSize')).toBe('5');
  });

  it('validates before sending: impossible dates, reversed ranges, page size over 100, --all with --limit', async () => {
    for (const args of [
      ['--from', '2025-02-30'],
      ['--to', '2025-13-01'],
      ['--from', '01/02/2025'],
      ['--from', '2025-03-01', '--to', '2025-02-01'],
      ['--page-size', '101'],
      ['--page-size', '0'],
      ['--status', 'SETTLED'],
      ['--all', '--limit', '5'],
    ]) {
      // in-process: the same program, without a process start per case
      const r = await runCli(['transactions', 'list', ...args, '-v'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).not.toMatch(/GET /);
      expect(r.stderr).toMatch(/^error: /);
    }
  });

  it('strips terminal control sequences from bank text in table output', async () => {
    const a = addAccount(t.sandbox.store, user, { name: 'Evil' });
    addTx(t.sandbox.store, a, '-1.00', '2017-01-01', { description: 'Shop\u001b[31mRED\u001b]0;title\u0007\u009b2J' });
    const r = await cli(['transactions', 'list', '--account', a.id, '-o', 'table']);
    expect(r.stdout).toContain('ShopRED');
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
  });
});

describe('the other reads', () => {
  it('identities, investments, loans, categories', async () => {
    const id = await cli(['identities', 'list', '-o', 'json']);
    expect(id.code, id.stderr).toBe(0);
    expect(JSON.parse(id.stdout)[0].ssn).toMatch(/^\d{12}$/);
    const inv = await cli(['investments', 'list', '--portfolio-type', 'isk', '-o', 'csv']);
    expect(inv.code, inv.stderr).toBe(0);
    expect(inv.stdout.split('\r\n')[0]).toBe(
      'id,type,account,totalValue,totalValue_currency,cash,cash_currency,instruments',
    );
    expect(inv.stdout).toContain(',ISK,');
    expect((await cli(['investments', 'list', '--portfolio-type', 'GOLD'])).code).toBe(2);
    const loansOut = (await cli(['loans', 'list', '-o', 'json'])).stdout;
    const loans = JSON.parse(loansOut);
    expect(loans.loans).toHaveLength(2);
    expect(typeof loans.totalLoanAmount).toBe('number');
    expect(loansOut).toMatch(/"totalLoanAmount": -?\d+\.\d\d,/);
    const mortgage = accounts.find((a) => a.type === 'MORTGAGE')!;
    expect((await cli(['loans', 'list', '-o', 'csv'])).stdout).toContain(`,${mortgage.balance},SEK,`);
    const en = await runCli(['categories', 'list', '-o', 'csv', '--fields', 'code,primaryName'], { env: t.env });
    expect(en.stdout).toContain('expenses:food,Food & Drinks');
    const sv = await runCli(['categories', 'list', '--locale', 'sv_SE', '-o', 'csv', '--fields', 'code,primaryName'], {
      env: t.env,
    });
    expect(sv.stdout).toContain('expenses:food,Mat & Dryck');
    // a Swedish user's own locale wins
    const mine = await cli(['categories', 'list', '--locale', 'en_US', '-o', 'csv', '--fields', 'code,primaryName']);
    expect(mine.stdout).toContain('expenses:food,Mat & Dryck');
  });

  it('balance-refresh create --wait ends FINISHED; the sixth in two hours exits 6 with the service message', async () => {
    const acc = accounts.find((a) => a.type === 'CHECKING')!;
    const r = await cli(['balance-refresh', 'create', '--account', acc.id, '--wait', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'FINISHED', credentialsId: acc.credentialsIds[0] });
    const st = await cli(['balance-refresh', 'status', JSON.parse(r.stdout).balanceRefreshId, '-o', 'json']);
    expect(JSON.parse(st.stdout).status).toBe('FINISHED');
    // fill the quota over the wire, then let the CLI meet the limit
    const token = await userToken(t.sandbox, user);
    for (let i = 0; i < 4; i++) {
      const res = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/balance-refresh', {
        headers: { authorization: `Bearer ${token}` },
        json: { accountId: acc.id },
      });
      expect(res.status).toBe(200);
    }
    const sixth = await cli(['balance-refresh', 'create', '--account', acc.id]);
    expect(sixth.code).toBe(6);
    expect(sixth.stderr).toMatch(/429.*Too Many Requests/);
    const unknown = await cli(['balance-refresh', 'create', '--account', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/accountId/);
  });

  it('Basic read-back: --basic <externalId>:<token> reads a connector user, and the token never shows', async () => {
    const s = t.sandbox.store;
    const id = s.ids.next();
    s.addUser({
      id,
      externalUserId: 'cli-basic',
      market: 'SE',
      locale: 'sv_SE',
      created: s.clock.now(),
      connector: { token: 'tok-very-secret-1', blocked: false, credentialsId: 'e'.repeat(32) },
    });
    const a = addAccount(s, id, { credentialsIds: ['e'.repeat(32)], balance: '-0.05' });
    addTx(s, a, '12.34', '2024-01-01');
    const r = await runCli(['transactions', 'list', '-o', 'ndjson', '-v'], {
      env: { ...t.env, BANKCTL_BASIC: 'cli-basic:tok-very-secret-1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).amount.value).toEqual({ scale: '2', unscaledValue: '1234' });
    expect(r.stderr).not.toContain('tok-very-secret-1');
    const acc = await runCli(['accounts', 'list', '-o', 'table'], {
      env: { ...t.env, BANKCTL_BASIC: 'cli-basic:tok-very-secret-1' },
    });
    expect(acc.stdout).toContain('-0.05 SEK');
    const wrong = await runCli(['accounts', 'list'], { env: { ...t.env, BANKCTL_BASIC: 'cli-basic:wrong' } });
    expect(wrong.code).toBe(3);
  });
});

describe('consents', () => {
  it('update-link for credentials the user does not hold exits 4 with no URL', async () => {
    const r = await cli(['consents', 'update-link', 'deadbeef000000000000000000000000']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/the user holds no credentials deadbeef000000000000000000000000/);
  });

  it('update-link prints a link whose page extends the session; the code is single-use', async () => {
    const creds = accounts[0]!.credentialsIds[0]!;
    const r = await cli(['consents', 'update-link', creds, '--market', 'se', '--state', 'xyz']);
    expect(r.code, r.stderr).toBe(0);
    const url = new URL(r.stdout.trim());
    expect(url.pathname).toBe('/link/1.0/transactions/update-consent');
    expect(url.searchParams.get('credentials_id')).toBe(creds);
    expect(url.searchParams.get('market')).toBe('SE');
    const pageRes = await fetch(url);
    expect(pageRes.status).toBe(200);
    const html = await pageRes.text();
    expect(html).toContain('Renew your consent');
    expect(html).toContain(accounts[0]!.name);
    const form = new URLSearchParams(url.searchParams);
    form.set('action', 'extend');
    const post = await fetch(`${t.sandbox.baseUrl}/link/1.0/transactions/update-consent`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(post.status).toBe(302);
    const back = new URL(post.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/callback');
    expect(back.searchParams.get('credentials_id')).toBe(creds);
    expect(back.searchParams.get('state')).toBe('xyz');
    const { consentSessionExpiry } = await import('../../src/sandbox/routes/update-consent.js');
    expect(consentSessionExpiry(t.sandbox.store, creds)! - t.sandbox.clock.now()).toBeGreaterThan(89 * 86_400_000);
    // the code is used up: the same link now goes back with an error
    const again = await fetch(`${t.sandbox.baseUrl}/link/1.0/transactions/update-consent`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(new URL(again.headers.get('location')!).searchParams.get('error')).toBe('BAD_REQUEST');
    // an unregistered redirect_uri is never redirected to
    const evil = new URL(url);
    evil.searchParams.set('redirect_uri', 'https://evil.example/cb');
    const refused = await raw(t.sandbox.baseUrl, 'GET', `${evil.pathname}${evil.search}`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('update-link without a user is a usage error', async () => {
    const r = await runCli(['consents', 'update-link', 'abc'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--user/);
  });

  it('every read command has examples in --help', async () => {
    for (const c of [
      ['accounts', 'list'],
      ['accounts', 'update'],
      ['accounts', 'balances'],
      ['balance-refresh', 'create'],
      ['balance-refresh', 'status'],
      ['transactions', 'list'],
      ['consents', 'list'],
      ['consents', 'delete'],
      ['consents', 'update-link'],
      ['identities', 'list'],
      ['investments', 'list'],
      ['loans', 'list'],
      ['categories', 'list'],
    ]) {
      const h = await runCli([...c, '--help']);
      expect(h.code, c.join(' ')).toBe(0);
      expect(h.stdout, c.join(' ')).toMatch(/Examples:\n\s+\$ bankctl /);
    }
  });
});
