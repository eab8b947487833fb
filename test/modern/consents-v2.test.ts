// Connectivity v2 consents through the CLI against the sandbox: templates, create (exact amounts,
// idempotency), an authorization walked through the redirect test provider to SUCCEEDED, a cancelled
// one FAILED at the test bank page, list, get, authorizations, revoke (REVOKED, then 409).
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { clientToken, raw } from '../helpers/sandbox.js';

const sb = useSandbox({ user: true });
const app = () => ({ ...sb.env, BANKCTL_USER: undefined });
const PROVIDER = 'se-test-open-banking-redirect';
const createArgs = () => [
  'consents',
  'v2',
  'create',
  '--provider',
  PROVIDER,
  '--for-user',
  sb.userId,
  '--currency',
  'SEK',
  '--max-amount',
  '100.50',
  '--limit',
  'MONTH=500',
  '--limit',
  'day=99.99',
  '--payee-name',
  'Savings',
  '--payee-number',
  '123456',
];

describe('consents v2', () => {
  test('templates: table, csv and json with the schema', async () => {
    const t = await runCli(['consents', 'v2', 'templates', PROVIDER, '-o', 'csv'], { env: app() });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(
      /^type,subtype,version,deprecated,supportedUntil,required\r?\nMANDATE_PAYMENTS,VRP_SWEEPING,1\.0\.0,false,/,
    );
    const j = await runCli(['consents', 'v2', 'templates', PROVIDER, '--subtype', 'vrp_commercial', '-o', 'json'], {
      env: app(),
    });
    expect(JSON.parse(j.stdout)).toMatchObject([
      { subtype: 'VRP_COMMERCIAL', schema: { required: ['controlParameters', 'payeeAccount'] } },
    ]);
    const bad = await runCli(['consents', 'v2', 'templates', 'no-such-bank'], { env: app() });
    expect(bad.code).toBe(4);
    const usage = await runCli(['consents', 'v2', 'templates', PROVIDER, '--subtype', 'X'], { env: app() });
    expect(usage.code).toBe(2);
  });

  test('create, authorize --wait, get, list, authorizations, revoke', async () => {
    const c = await runCli([...createArgs(), '-o', 'json'], { env: app() });
    expect(c.code, c.stderr).toBe(0);
    const consent = JSON.parse(c.stdout);
    expect(consent.state).toBe('INITIALIZED');
    const limits = consent.financialServiceParameters.userParameters.controlParameters;
    expect(limits.maximumIndividualAmount).toEqual({ currency: 'SEK', value: { scale: 2, unscaledValue: 10050 } });
    expect(limits.periodicLimits[1]).toEqual({
      amount: { currency: 'SEK', value: { scale: 2, unscaledValue: 9999 } },
      periodAlignment: 'MANDATE',
      periodType: 'DAY',
    });
    // the user authorizes it: the redirect provider's bank page, then SUCCEEDED
    const a = await runCli(['consents', 'v2', 'authorize', consent.id, '--wait', '--timeout', '30', '-o', 'json'], {
      env: sb.env,
    });
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout)).toMatchObject({ consentId: consent.id, state: 'SUCCEEDED' });
    const g = await runCli(['consents', 'v2', 'get', consent.id, '-o', 'table'], { env: app() });
    expect(g.code, g.stderr).toBe(0);
    expect(g.stdout).toMatch(/^state +ACTIVE$/m);
    expect(g.stdout).toContain('100.50 SEK');
    const l = await runCli(['consents', 'v2', 'list', '--all', '-o', 'ndjson'], { env: sb.env });
    expect(l.code, l.stderr).toBe(0);
    expect(
      l.stdout
        .trim()
        .split('\n')
        .map((x) => JSON.parse(x).id),
    ).toContain(consent.id);
    // a second authorization of an ACTIVE consent is a conflict
    const again = await runCli(['consents', 'v2', 'authorize', consent.id], { env: sb.env });
    expect(again.code).toBe(5);
    const r = await runCli(['consents', 'v2', 'revoke', consent.id, '-o', 'json'], { env: app() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ consent: { state: 'REVOKED' }, authorization: { state: 'REVOKING' } });
    const twice = await runCli(['consents', 'v2', 'revoke', consent.id], { env: app() });
    expect(twice.code).toBe(5);
    const auths = await runCli(['consents', 'v2', 'authorizations', consent.id, '-o', 'csv'], { env: app() });
    expect(auths.stdout).toMatch(/^id,consent,state,redirectUri,error,created\r?\n.*SUCCEEDED/);
    const one = JSON.parse(JSON.parse(r.stdout).authorization.id ? r.stdout : '{}').authorization.id as string;
    const ga = await runCli(['consents', 'v2', 'authorizations', consent.id, one, '-o', 'json'], { env: app() });
    expect(JSON.parse(ga.stdout).state).toMatch(/^REVOK/);
  }, 60_000);

  test('a login cancelled at the test bank fails the authorization (exit 9)', async () => {
    const c = JSON.parse((await runCli([...createArgs(), '-o', 'json'], { env: app() })).stdout);
    const sbx = sb.t.sandbox;
    const start = await runCli(['consents', 'v2', 'authorize', c.id, '-o', 'json'], { env: sb.env });
    expect(start.code, start.stderr).toBe(0);
    let auth = JSON.parse(start.stdout);
    for (let i = 0; i < 100 && auth.state !== 'AWAITING_INPUT'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      auth = JSON.parse(
        (await runCli(['consents', 'v2', 'authorizations', c.id, auth.id, '-o', 'json'], { env: app() })).stdout,
      );
    }
    if (auth.state === 'AWAITING_INPUT') {
      const state = new URL(auth.supplementalInformation.redirectUri).searchParams.get('state')!;
      const page = await raw(
        sbx.baseUrl,
        'GET',
        `/sandbox/test-bank/authorize?state=${encodeURIComponent(state)}&cancel=1`,
      );
      // 400: the sandbox's bank had already answered for the user (its human delay), the walk ended
      if (page.status !== 200) return;
      const w = await runCli(['consents', 'v2', 'authorize', c.id, '--wait', '--timeout', '5'], { env: sb.env });
      expect([5, 9]).toContain(w.code);
      for (let i = 0; i < 100 && auth.state !== 'FAILED'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        auth = JSON.parse(
          (await runCli(['consents', 'v2', 'authorizations', c.id, auth.id, '-o', 'json'], { env: app() })).stdout,
        );
      }
      expect(auth).toMatchObject({ state: 'FAILED', detailedError: { type: expect.any(String) } });
    } else {
      // the sandbox's bank answered before the test could cancel: the walk still ended
      expect(['SUCCEEDED', 'FAILED']).toContain(auth.state);
    }
  }, 60_000);

  test('the wire: Idempotency-Key required, replayed, 422 on another body; client token only for create', async () => {
    const sbx = sb.t.sandbox;
    const ct = await clientToken(sbx, ['consents']);
    const body = {
      providerId: PROVIDER,
      userId: sb.userId,
      financialService: { type: 'MANDATE_PAYMENTS', subtype: 'VRP_SWEEPING' },
      financialServiceParameters: {
        userParameters: {
          controlParameters: {
            maximumIndividualAmount: { currency: 'GBP', value: { scale: 2, unscaledValue: 199 } },
            periodicLimits: [
              {
                amount: { currency: 'GBP', value: { scale: 2, unscaledValue: 299 } },
                periodAlignment: 'MANDATE',
                periodType: 'DAY',
              },
            ],
          },
          payeeAccount: { name: 'x', number: '1', type: 'SORT_CODE' },
        },
      },
    };
    const h = { authorization: `Bearer ${ct}` };
    expect((await raw(sbx.baseUrl, 'POST', '/connectivity/v2/consents', { headers: h, json: body })).status).toBe(400);
    const k = { ...h, 'idempotency-key': 'k1' };
    const first = await raw(sbx.baseUrl, 'POST', '/connectivity/v2/consents', { headers: k, json: body });
    expect(first.status).toBe(201);
    const second = await raw(sbx.baseUrl, 'POST', '/connectivity/v2/consents', { headers: k, json: body });
    expect(second.json().consent.id).toBe(first.json().consent.id);
    const other = await raw(sbx.baseUrl, 'POST', '/connectivity/v2/consents', {
      headers: k,
      json: { ...body, providerId: 'se-test-password' },
    });
    expect(other.status).toBe(422);
    const ro = await clientToken(sbx, ['consents:readonly']);
    const denied = await raw(sbx.baseUrl, 'POST', '/connectivity/v2/consents', {
      headers: { authorization: `Bearer ${ro}`, 'idempotency-key': 'k2' },
      json: body,
    });
    expect(denied.status).toBe(403);
    const listed = await raw(sbx.baseUrl, 'GET', '/connectivity/v2/consents?page_size=1', {
      headers: { authorization: `Bearer ${ro}` },
    });
    expect(listed.status).toBe(200);
    expect(listed.json().consents).toHaveLength(1);
  });

  test('spawned: consents v2 list as the app, and relay-callback of an unknown state is exit 2', async () => {
    const l = await spawnCli(['consents', 'v2', 'list', '-o', 'table'], { env: app() });
    expect(l.code, l.stderr).toBe(0);
    expect(l.stdout).toContain(PROVIDER);
    const r = await spawnCli(
      ['consents', 'v2', 'relay-callback', '--url', 'https://example.com/cb?state=nope&code=1'],
      { env: app() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown or expired state');
  }, 60_000);
});
