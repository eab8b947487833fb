// Connectivity v2 consents through the CLI against the sandbox: templates, create (exact amounts,
// idempotency), an authorization walked through the redirect test provider to SUCCEEDED, a cancelled
// one FAILED at the test bank page, list, get, authorizations, revoke (REVOKED, then 409).
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/commands.js';
import { createArgsFor, postVrpConsent, vrpConsentBody, vrpParameters } from '../helpers/consents-v2-create.js';
import { clientToken, raw, userWithToken } from '../helpers/sandbox.js';

const sb = useSandbox({ user: true });
const app = () => ({ ...sb.env, BANKCTL_USER: undefined });
const PROVIDER = 'se-test-open-banking-redirect';
const createArgs = (userId = sb.userId) =>
  createArgsFor(
    PROVIDER,
    userId,
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
    '--reference',
    'SWEEP-2026',
    '--remittance-text',
    'Monthly savings sweep',
  );

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
      {
        subtype: 'VRP_COMMERCIAL',
        schema: { required: ['controlParameters', 'payeeAccount', 'remittanceInformation'] },
      },
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
    // the reference's template requires remittanceInformation: the flags fill it
    expect(consent.financialServiceParameters.userParameters.remittanceInformation).toEqual({
      reference: 'SWEEP-2026',
      unstructured: 'Monthly savings sweep',
    });
    const long = await runCli([...createArgs(), '--reference', 'X'.repeat(19)], { env: app() });
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('--reference must be 1 to 18 characters, got 19');
    expect(limits.periodicLimits[1]).toEqual({
      amount: { currency: 'SEK', value: { scale: 2, unscaledValue: 9999 } },
      periodAlignment: 'MANDATE',
      periodType: 'DAY',
    });
    // the user authorizes it: the redirect provider's bank page, then SUCCEEDED
    const a = await runCli(
      ['consents', 'v2', 'authorize', consent.id, '--wait', '--wait-timeout', '30', '-o', 'json'],
      {
        env: sb.env,
      },
    );
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

  test('the wire: Idempotency-Key required, replayed, 422 on another body; client token only for create', async () => {
    const sbx = sb.t.sandbox;
    const ct = await clientToken(sbx, ['consents']);
    const body = vrpConsentBody({ providerId: PROVIDER, userId: sb.userId });
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

  test('list -q: one page of several still says more pages exist, and the last page says nothing', async () => {
    for (let i = 0; i < 2; i++) expect((await runCli(createArgs(), { env: app() })).code).toBe(0);
    const first = await runCli(['consents', 'v2', 'list', '--page-size', '1', '-q', '-o', 'json'], { env: app() });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toHaveLength(1);
    const m = /^more consents: use --all, or --page-token (\S+)\n$/.exec(first.stderr);
    expect(m, first.stderr).not.toBeNull();
    const all = await runCli(['consents', 'v2', 'list', '--all', '-q', '-o', 'json'], { env: app() });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toBe('');
    expect(JSON.parse(all.stdout).length).toBeGreaterThanOrEqual(2);
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

// The test bank answers for the person only after authDelayMs; here that is longer than the test, so
// what the test does at the bank's page is what decides the authorization.
describe('consents v2 create: validity and amounts checked before sending', () => {
  test.each([
    [['--valid-from', 'yesterday'], '--valid-from must be a UTC time like 2026-01-01T00:00:00.000Z'],
    [['--valid-to', '2026-13-45'], '--valid-to must be a UTC time'],
    [['--valid-to', '2026-02-30T00:00:00.000Z'], '--valid-to must be a UTC time'],
    [
      ['--valid-from', '2026-12-01T00:00:00.000Z', '--valid-to', '2026-11-01'],
      '--valid-from 2026-12-01T00:00:00.000Z is after --valid-to 2026-11-01T23:59:59.999Z',
    ],
    [['--max-amount', '100.123'], '--max-amount 100.123 has 3 decimals; SEK has 2'],
    [['--max-amount', '99999999999999999999.99'], '--max-amount 99999999999999999999.99 has too many digits'],
  ])('%j is exit 2 with nothing created', async (extra, message) => {
    const before = (await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout;
    const r = await runCli([...createArgs(), ...extra], { env: app() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect((await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout).toBe(before);
  });

  test('a date alone is that whole UTC day; whole seconds get their milliseconds', async () => {
    const r = await runCli(
      [...createArgs(), '--valid-from', '2099-01-01', '--valid-to', '2099-12-31T10:00:00Z', '-o', 'json'],
      { env: app() },
    );
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout).financialServiceParameters.userParameters.controlParameters;
    expect([c.validFrom, c.validTo]).toEqual(['2099-01-01T00:00:00.000Z', '2099-12-31T10:00:00.000Z']);
  });
});

describe('consents v2: a person at the test bank', () => {
  const slow = useSandbox({ user: true, sandbox: { authDelayMs: 120_000 } });
  const appEnv = () => ({ ...slow.env, BANKCTL_USER: undefined });

  async function awaitingInput(consentId: string, authorizationId?: string): Promise<{ id: string; uri: string }> {
    for (let i = 0; i < 200; i++) {
      const l = await runCli(['consents', 'v2', 'authorizations', consentId, '-o', 'ndjson'], { env: appEnv() });
      const auths = l.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((x) => JSON.parse(x) as { id: string; state: string; supplementalInformation?: { redirectUri?: string } });
      const a = auths.find(
        (x) =>
          (!authorizationId || x.id === authorizationId) &&
          x.state === 'AWAITING_INPUT' &&
          x.supplementalInformation?.redirectUri,
      );
      if (a) return { id: a.id, uri: a.supplementalInformation!.redirectUri! };
      await new Promise((r) => setTimeout(r, 50));
    }
    const l = await runCli(['consents', 'v2', 'authorizations', consentId, '-o', 'ndjson'], { env: appEnv() });
    throw new Error(`no authorization came to AWAITING_INPUT: ${l.stdout}`);
  }

  test('cancelling the login fails `authorize --wait` with exit 9, and the failure stays when a later login succeeds', async () => {
    const c = JSON.parse((await runCli([...createArgs(slow.userId), '-o', 'json'], { env: appEnv() })).stdout);
    // the person reads the bank's address from what `--wait` says, and cancels there
    let said: (uri: string) => void = () => undefined;
    const told = new Promise<string>((resolve) => (said = resolve));
    const waiting = spawnCli(['consents', 'v2', 'authorize', c.id, '--wait', '--wait-timeout', '60'], {
      env: slow.env,
      timeoutMs: 90_000,
      onStderr: (soFar) => {
        const m = /log in at the bank: (\S+)/.exec(soFar);
        if (m) said(m[1]!);
      },
    });
    const uri = await Promise.race([told, waiting.then((r) => Promise.reject(new Error(r.stderr)))]);
    const first = await awaitingInput(c.id);
    expect(first.uri).toBe(uri);
    const cancelled = await fetch(`${uri}&cancel=1`);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain('You cancelled the login');
    const w = await waiting;
    expect(w.code, w.stderr).toBe(9);
    expect(w.stderr).toMatch(new RegExp(`authorization ${first.id} ended FAILED: .*cancelled`));

    // a second authorization of the same consent logs in on the same credentials and succeeds
    const again = await runCli(['consents', 'v2', 'authorize', c.id, '-o', 'json'], { env: slow.env });
    expect(again.code, again.stderr).toBe(0);
    const second = await awaitingInput(c.id, JSON.parse(again.stdout).id);
    expect((await fetch(second.uri)).status).toBe(200);
    let state = '';
    for (let i = 0; i < 200 && state !== 'SUCCEEDED'; i++) {
      const g = await runCli(['consents', 'v2', 'authorizations', c.id, second.id, '-o', 'json'], { env: appEnv() });
      state = JSON.parse(g.stdout).state;
      if (state !== 'SUCCEEDED') await new Promise((r) => setTimeout(r, 50));
    }
    expect(state).toBe('SUCCEEDED');
    const old = await runCli(['consents', 'v2', 'authorizations', c.id, first.id, '-o', 'json'], { env: appEnv() });
    expect(JSON.parse(old.stdout)).toMatchObject({
      state: 'FAILED',
      detailedError: { type: expect.any(String), details: { reason: 'USER_CANCELLED' } },
    });
    const got = await runCli(['consents', 'v2', 'get', c.id, '-o', 'json'], { env: appEnv() });
    expect(JSON.parse(got.stdout).state).toBe('ACTIVE');
    // on the wire the consent comes wrapped, as the reference's GetConsentResponse has it
    const wire = await runCli(['api', 'GET', `/connectivity/v2/consents/${c.id}`], { env: appEnv() });
    expect(JSON.parse(wire.stdout).consent).toMatchObject({ id: c.id, state: 'ACTIVE' });
  }, 120_000);
});

describe('consents v2: a retry while the first request still runs', () => {
  test('the same Idempotency-Key twice at once: one authorization (202) and a 409, not a second login', async () => {
    const sbx = sb.t.sandbox;
    const { userId, token } = await userWithToken(sbx, ['consents']);
    const created = await postVrpConsent(sbx, { userId, providerId: PROVIDER, key: 'c-race', userExtra: {} });
    expect(created.status).toBe(201);
    const id = created.json().consent.id as string;
    const h = { authorization: `Bearer ${token}`, 'idempotency-key': 'a-race' };
    const path = `/connectivity/v2/consents/${id}/authorizations`;
    const [a, b] = await Promise.all([
      raw(sbx.baseUrl, 'POST', path, { headers: h, json: {} }),
      raw(sbx.baseUrl, 'POST', path, { headers: h, json: {} }),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const conflict = a.status === 409 ? a : b;
    expect(conflict.json()).toMatchObject({ errorCode: 'request.in_progress' });
    const list = await raw(sbx.baseUrl, 'GET', path, { headers: { authorization: `Bearer ${token}` } });
    expect(list.json().authorizations).toHaveLength(1);
    // once answered, the same key replays the first answer
    const again = await raw(sbx.baseUrl, 'POST', path, { headers: h, json: {} });
    expect(again.status).toBe(202);
    expect(again.json().authorization.id).toBe((a.status === 202 ? a : b).json().authorization.id);
  });
});

describe('consents v2: validFrom and validTo as the template writes them', () => {
  const params = (controlExtra: Record<string, unknown>) => JSON.stringify(vrpParameters({ controlExtra }));
  const create = (controlExtra: Record<string, unknown>) =>
    runCli(createArgsFor(PROVIDER, sb.userId, '--parameters', '-', '-o', 'json'), {
      env: app(),
      stdin: params(controlExtra),
    });

  test.each([
    ['a word', { validTo: 'next year' }, 'validTo'],
    ['a day February does not have', { validTo: '2099-02-30T00:00:00.000Z' }, 'validTo'],
    ['a number', { validTo: 4102444800000 }, 'validTo'],
    ['no milliseconds', { validFrom: '2099-01-01T00:00:00Z' }, 'validFrom'],
  ])('%s is refused, no consent made without the end the app asked for', async (_, extra, field) => {
    const before = (await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout;
    const r = await create(extra);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`controlParameters.${field} must be a UTC time yyyy-MM-ddTHH:mm:ss.SSSZ`);
    expect((await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout).toBe(before);
  });

  test('validFrom after validTo is refused; a real range makes a consent that expires then', async () => {
    const bad = await create({ validFrom: '2099-06-01T00:00:00.000Z', validTo: '2099-01-01T00:00:00.000Z' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('validFrom (2099-06-01T00:00:00.000Z) is after validTo (2099-01-01T00:00:00.000Z)');
    const ok = await create({ validFrom: '2099-01-01T00:00:00.000Z', validTo: '2099-06-01T12:30:00.000Z' });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ state: 'INITIALIZED', expiresAt: '2099-06-01T12:30:00.000Z' });
  });
});

describe('consents v2: payee and payer accounts as the template has them', () => {
  const create = (userExtra: Record<string, unknown>) =>
    runCli(createArgsFor(PROVIDER, sb.userId, '--parameters', '-', '-o', 'json'), {
      env: app(),
      stdin: JSON.stringify(vrpParameters({ payeeNumber: '10000031510604', userExtra })),
    });

  test.each([
    ['a payee name over 35 characters', { payeeAccount: { name: 'N'.repeat(36), number: '1' } }, 'payeeAccount.name'],
    ['an IBAN payee', { payeeAccount: { name: 'x', number: 'SE45', type: 'IBAN' } }, 'payeeAccount.type'],
    ['a payer without its holder', { payerAccount: { holderName: '', number: '1' } }, 'payerAccount.holderName'],
    [
      'a payer without a number',
      { payerAccount: { holderName: 'Tom John', type: 'SORT_CODE' } },
      'payerAccount.number',
    ],
    ['a merchantId that is a number', { merchantId: 5 }, 'userParameters.merchantId'],
  ])('%s is refused', async (_, extra, field) => {
    const before = (await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout;
    const r = await create(extra);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(field);
    expect((await runCli(['consents', 'v2', 'list', '-o', 'json'], { env: app() })).stdout).toBe(before);
  });

  test('35 characters, a payer and no type (the default SORT_CODE) are accepted; the template shows the limits', async () => {
    const ok = await create({
      payeeAccount: { name: 'N'.repeat(35), number: '1' },
      payerAccount: { holderName: 'Tom John', number: '60092067037135', type: 'SORT_CODE' },
      merchantId: 'm-1',
    });
    expect(ok.code, ok.stderr).toBe(0);
    const t = await runCli(['consents', 'v2', 'templates', PROVIDER, '--subtype', 'VRP_SWEEPING', '-o', 'json'], {
      env: app(),
    });
    const props = JSON.parse(t.stdout)[0].schema.properties;
    expect(props.payeeAccount.properties.name).toMatchObject({ maxLength: 35, minLength: 1 });
    expect(props.payerAccount.properties.holderName).toMatchObject({ maxLength: 35, minLength: 1 });
  });
});

test('consents v2: a template version the provider has not is refused, naming the versions it has', async () => {
  const body = (version: unknown) => JSON.stringify({ ...vrpParameters(), version });
  const args = createArgsFor(PROVIDER, sb.userId, '--parameters', '-');
  for (const v of ['2.0.0', 1]) {
    const r = await runCli([...args, '-o', 'json'], { env: app(), stdin: body(v) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('is not a template version of VRP_SWEEPING (1.0.0)');
  }
  const ok = await runCli([...args, '-o', 'json'], { env: app(), stdin: body('1.0.0') });
  expect(ok.code, ok.stderr).toBe(0);
  expect(JSON.parse(ok.stdout).financialServiceParameters.version).toBe('1.0.0');
});
