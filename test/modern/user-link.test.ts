// users get|update, users profile get|set, auth link-session with the hosted flow's session_id and
// the transaction report it makes (transactions report), and providers list without a user.
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { raw } from '../helpers/sandbox.js';

const sb = useSandbox({ user: true });
const app = () => ({ ...sb.env, BANKCTL_USER: undefined });

describe('users get|update and users profile get|set', () => {
  test('the user and its profile in every format', async () => {
    const g = await runCli(['users', 'get', '-o', 'json'], { env: sb.env });
    expect(g.code, g.stderr).toBe(0);
    expect(JSON.parse(g.stdout)).toMatchObject({ id: sb.userId, profile: { market: 'SE', currency: 'SEK' } });
    const u = await runCli(
      ['users', 'update', '--username', 'tinker@example.com', '--external-user-id', 'cust-42', '-o', 'table'],
      {
        env: sb.env,
      },
    );
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toMatch(/^username +tinker@example\.com$/m);
    expect(u.stdout).toMatch(/^externalUserId +cust-42$/m);
    const p = await runCli(
      [
        'users',
        'profile',
        'set',
        '--period-mode',
        'monthly',
        '--period-adjusted-day',
        '10',
        '--notify',
        'budget=on',
        '-o',
        'csv',
      ],
      {
        env: sb.env,
      },
    );
    expect(p.code, p.stderr).toBe(0);
    expect(p.stdout).toBe(
      'market,currency,locale,timeZone,periodMode,periodAdjustedDay,notifications\r\nSE,SEK,sv_SE,Europe/Stockholm,MONTHLY,10,budget\r\n',
    );
    const pg = await runCli(['users', 'profile', 'get', '-o', 'ndjson'], { env: sb.env });
    expect(JSON.parse(pg.stdout)).toMatchObject({
      periodMode: 'MONTHLY',
      notificationSettings: { budget: true, fraud: false },
    });
    const bad = await runCli(['users', 'profile', 'set', '--time-zone', 'Mars/Olympus'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown time zone');
    const nothing = await runCli(['users', 'update'], { env: sb.env });
    expect(nothing.code).toBe(2);
  });

  test('spawned: users get -o table, and the wire refuses a read-only currency change', async () => {
    const r = await spawnCli(['users', 'get', '-o', 'table'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(sb.userId);
    const anon = await raw(sb.t.sandbox.baseUrl, 'GET', '/api/v1/user');
    expect(anon.status).toBe(401);
  }, 60_000);
});

describe('Link sessions and transaction reports', () => {
  test('auth link-session, a hosted flow with session_id, then transactions report', async () => {
    const sbx = sb.t.sandbox;
    const s = await runCli(
      ['auth', 'link-session', '--external-reference', 'order-42', '--merchant-id', 'm-1', '-o', 'json'],
      { env: app() },
    );
    expect(s.code, s.stderr).toBe(0);
    const sessionId = JSON.parse(s.stdout).sessionId as string;
    expect(sessionId).toMatch(/^[\w-]{20,}$/);
    // the hosted flow, driven over HTTP as its page script would
    const redirect = 'http://localhost:9/callback';
    const q = new URLSearchParams({
      client_id: sbx.clientId,
      redirect_uri: redirect,
      scope: 'accounts:read',
      session_id: sessionId,
      market: 'SE',
    });
    const page = await raw(sbx.linkUrl, 'GET', `/1.0/authorize/?${q}`);
    expect(page.status).toBe(200);
    const cfg = JSON.parse(/<script type="application\/json" id="link-config">([^<]*)<\/script>/.exec(page.text)![1]!);
    const h = { authorization: `Bearer ${cfg.token}` };
    const cr = await raw(sbx.baseUrl, 'POST', '/api/v1/credentials', {
      headers: h,
      json: { providerName: 'se-test-password', fields: { username: 'test-user', password: 'test-password' } },
    });
    expect(cr.status, cr.text).toBe(200);
    let status = '';
    for (let i = 0; i < 200 && status !== 'UPDATED'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await raw(sbx.baseUrl, 'GET', `/api/v1/credentials/${cr.json().id}`, { headers: h })).json().status;
    }
    const done = await raw(sbx.linkUrl, 'POST', '/1.0/complete', {
      json: { session: cfg.session, credentialsId: cr.json().id },
    });
    expect(done.status, done.text).toBe(200);
    const back = new URL(done.json().url);
    const reportId = back.searchParams.get('transaction_report_id')!;
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(reportId).toMatch(/^[0-9a-f]{32}$/);
    // the session is used up
    const reused = await fetch(`${sbx.linkUrl}/1.0/authorize/?${q}`, { redirect: 'manual' });
    expect(reused.status).toBe(302);
    expect(reused.headers.get('location')).toContain('error=BAD_REQUEST');
    // the report, read with the app's client token
    const j = await runCli(['transactions', 'report', reportId, '-o', 'json'], { env: app() });
    expect(j.code, j.stderr).toBe(0);
    const report = JSON.parse(j.stdout);
    expect(report).toMatchObject({ id: reportId, externalReference: 'order-42', merchantId: 'm-1' });
    expect(report.accounts.length).toBeGreaterThan(0);
    expect(report.transactions.length).toBeGreaterThan(0);
    const t = report.transactions[0];
    const c = await runCli(['transactions', 'report', reportId, '-o', 'csv'], { env: app() });
    expect(c.stdout.split('\r\n')[0]).toBe('date,description,amount,currency,status,category,account,id');
    expect(c.stdout).toContain(`${t.id}`);
    const nd = await runCli(['transactions', 'report', reportId, '-o', 'ndjson'], { env: app() });
    expect(nd.stdout.trim().split('\n')).toHaveLength(report.transactions.length);
    const tb = await spawnCli(['transactions', 'report', reportId, '-o', 'table'], { env: app() });
    expect(tb.code, tb.stderr).toBe(0);
    expect(tb.stdout).toContain(t.descriptions.display.slice(0, 10));
    const missing = await runCli(['transactions', 'report', 'f'.repeat(32)], { env: app() });
    expect(missing.code).toBe(4);
  }, 90_000);
});

describe('providers list keeps working without a user', () => {
  test('client credentials only: the market list; --user: the user list (credentials:read)', async () => {
    const r = await runCli(['providers', 'list', '--market', 'SE', '--only-test', '-o', 'csv', '--verbose'], {
      env: app(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('se-test-password');
    expect(r.stderr).toContain('/api/v1/providers/SE');
    const u = await runCli(['providers', 'list', '--market', 'SE', '--only-test', '-o', 'csv', '--verbose'], {
      env: sb.env,
    });
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toContain('se-test-password');
    expect(u.stderr).toMatch(/GET \S*\/api\/v1\/providers\?/);
    const bare = await runCli(['providers', 'list', '--market', 'SE', '-o', 'json'], {
      env: { ...app(), BANKCTL_CLIENT_ID: undefined, BANKCTL_CLIENT_SECRET: undefined },
    });
    expect(bare.code, bare.stderr).toBe(0);
  });
});
