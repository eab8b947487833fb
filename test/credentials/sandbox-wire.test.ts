// The sandbox's credentials and providers at the wire: statuses, statusUpdated, the shapes of
// supplementalInformation, errors, opt-in, the QR code, consents, deletion and events.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, userWithToken, clientToken, type TestEnv } from '../helpers/sandbox.js';
import { MARKETS } from '../../src/contract/markets.js';

let t: TestEnv;
let base: string;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 20 });
  base = t.sandbox.baseUrl;
});
afterAll(() => t.close());

const SCOPES = [
  'credentials:read',
  'credentials:write',
  'credentials:refresh',
  'provider-consents:read',
  'providers:read',
  'accounts:read',
];

async function user() {
  const u = await userWithToken(t.sandbox, SCOPES);
  const h = { authorization: `Bearer ${u.token}` };
  return { ...u, h };
}

async function waitFor(
  h: Record<string, string>,
  id: string,
  pred: (c: any) => boolean,
  timeoutMs = 3000,
): Promise<{ seen: any[]; last: any }> {
  const seen: any[] = [];
  const start = Date.now();
  for (;;) {
    const r = await raw(base, 'GET', `/api/v1/credentials/${id}`, { headers: h });
    expect(r.status).toBe(200);
    const c = r.json();
    if (!seen.length || seen[seen.length - 1].statusUpdated !== c.statusUpdated) seen.push(c);
    if (pred(c)) return { seen, last: c };
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out; statuses seen: ${seen.map((s) => s.status).join(' ')}`);
    await new Promise((r) => setTimeout(r, 3));
  }
}

const final = (c: any) => ['UPDATED', 'AUTHENTICATION_ERROR', 'TEMPORARY_ERROR'].includes(c.status);

describe('providers', () => {
  test('test providers only with includeTestProviders; excludeNonTestProviders leaves only them; market and capability filter', async () => {
    const { h } = await user();
    const plain = (await raw(base, 'GET', '/api/v1/providers?market=SE', { headers: h })).json();
    expect(plain.providers.length).toBeGreaterThan(2);
    expect(plain.providers.every((p: any) => p.type !== 'TEST' && p.market === 'SE')).toBe(true);
    const withTest = (
      await raw(base, 'GET', '/api/v1/providers?market=SE&includeTestProviders=true', { headers: h })
    ).json();
    const names = withTest.providers.map((p: any) => p.name);
    for (const n of [
      'se-test-open-banking-embedded',
      'se-test-open-banking-decoupled-successful',
      'se-test-open-banking-redirect',
      'se-test-other-password',
      'se-test-other-eid-successful',
      'se-test-other-eid-failing-cancelled',
      'se-test-other-eid-failing-inprogress',
      'se-test-other-eid-failing-timeout',
      'se-test-other-multi-supplemental',
      'se-test-other-third-party-app-successful',
      'se-test-other-third-party-app-failing-cancelled',
      'se-test-other-third-party-app-failing-inprogress',
      'se-test-other-third-party-app-failing-timeout',
      'se-test-eid-successful',
      'se-test-eid-failing',
      'se-test-password',
      'se-test-multi-supplemental',
    ])
      expect(names).toContain(n);
    const only = (
      await raw(base, 'GET', '/api/v1/providers?market=DE&includeTestProviders=true&excludeNonTestProviders=true', {
        headers: h,
      })
    ).json();
    expect(only.providers.map((p: any) => p.name).sort()).toEqual(['de-test-multi-supplemental', 'de-test-password']);
    const pw = only.providers.find((p: any) => p.name === 'de-test-password');
    expect(pw).toMatchObject({
      type: 'TEST',
      currency: 'EUR',
      market: 'DE',
      credentialsType: 'PASSWORD',
      status: 'ENABLED',
    });
    expect(pw.fields.map((f: any) => [f.name, f.masked])).toEqual([
      ['username', false],
      ['password', true],
    ]);
    const pay = (await raw(base, 'GET', '/api/v1/providers?market=SE&capability=PAYMENTS', { headers: h })).json();
    expect(pay.providers.length).toBeGreaterThan(0);
    expect(pay.providers.every((p: any) => p.capabilities.includes('PAYMENTS'))).toBe(true);
    expect((await raw(base, 'GET', '/api/v1/providers?capability=NOPE', { headers: h })).status).toBe(400);
    expect((await raw(base, 'GET', '/api/v1/providers?market=XX', { headers: h })).status).toBe(400);
    expect((await raw(base, 'GET', '/api/v1/providers?includeTestProviders=yes', { headers: h })).status).toBe(400);
  });

  test('the markets that have providers: a client or user token with providers:read', async () => {
    const ct = await clientToken(t.sandbox, ['providers:read']);
    const r = await raw(base, 'GET', '/api/v1/providers/markets', { headers: { authorization: `Bearer ${ct}` } });
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ markets: [...MARKETS].sort() });
    const { h } = await user();
    expect((await raw(base, 'GET', '/api/v1/providers/markets', { headers: h })).json().markets).toContain('SE');
    expect((await raw(base, 'GET', '/api/v1/providers/markets')).status).toBe(401);
    const other = await clientToken(t.sandbox, ['user:create']);
    const denied = await raw(base, 'GET', '/api/v1/providers/markets', {
      headers: { authorization: `Bearer ${other}` },
    });
    expect(denied.status).toBe(403);
  });

  test('single lookup by name, 404 for an unknown one; a client token works too', async () => {
    const ct = await clientToken(t.sandbox, ['providers:read']);
    const r = await raw(base, 'GET', '/api/v1/providers/se-test-other-eid-successful', {
      headers: { authorization: `Bearer ${ct}` },
    });
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({
      name: 'se-test-other-eid-successful',
      credentialsType: 'MOBILE_BANKID',
      type: 'TEST',
    });
    expect(r.json().flow).toBeUndefined();
    const nf = await raw(base, 'GET', '/api/v1/providers/no-such-bank', { headers: { authorization: `Bearer ${ct}` } });
    expect(nf.status).toBe(404);
    expect(nf.json().errorMessage).toContain('no-such-bank');
  });
});

describe('credentials', () => {
  test('password: CREATED, AUTHENTICATING, UPDATING, UPDATED with strictly increasing statusUpdated, events, demo data and a consent', async () => {
    const { h, userId } = await user();
    const before = t.sandbox.events.recent.length;
    const r = await raw(base, 'POST', '/api/v1/credentials', {
      headers: h,
      json: { providerName: 'se-test-other-password', fields: { username: 'test-user', password: 'test-password' } },
    });
    expect(r.status).toBe(200);
    const created = r.json();
    expect(created).toMatchObject({
      status: 'CREATED',
      providerName: 'se-test-other-password',
      userId,
      type: 'PASSWORD',
    });
    expect(created.fields).toEqual({ username: 'test-user' });
    const { last } = await waitFor(h, created.id, final);
    expect(last.status).toBe('UPDATED');
    expect(typeof last.updated).toBe('number');
    const events = t.sandbox.events.recent.slice(before).filter((e) => e.orderKey === created.id);
    expect(events[0]!.event).toBe('credentials:create');
    expect(events.slice(1).map((e) => e.content.status)).toEqual(['AUTHENTICATING', 'UPDATING', 'UPDATED']);
    const stamps = events.slice(1).map((e) => e.content.statusUpdated as number);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]!).toBeGreaterThan(stamps[i - 1]!);
    expect(JSON.stringify(events.map((e) => e.content))).not.toContain('test-password');
    const accounts = [...t.sandbox.store.accounts.values()].filter((a) => a.userId === userId);
    expect(accounts.map((a) => a.type).sort()).toEqual(['CHECKING', 'INVESTMENT', 'LOAN', 'MORTGAGE', 'SAVINGS']);
    const consents = (await raw(base, 'GET', '/api/v1/provider-consents', { headers: h })).json().providerConsents;
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({
      credentialsId: created.id,
      providerName: 'se-test-other-password',
      status: 'UPDATED',
    });
    expect(consents[0].accountIds.sort()).toEqual(accounts.map((a) => a.id).sort());
    expect(consents[0].sessionExpiryDate).toBeGreaterThan(Date.now());
  });

  test('usernames decide: fail... AUTHENTICATION_ERROR, temp... TEMPORARY_ERROR, wrong password AUTHENTICATION_ERROR; consents carry detailedError', async () => {
    const { h } = await user();
    const outcomes: Record<string, string> = {};
    for (const [username, password] of [
      ['failing', 'test-password'],
      ['temporary', 'test-password'],
      ['test-user', 'nope'],
      ['someone', 'test-password'],
    ] as const) {
      const c = (
        await raw(base, 'POST', '/api/v1/credentials', {
          headers: h,
          json: { providerName: 'se-test-password', fields: { username, password } },
        })
      ).json();
      outcomes[`${username}/${password}`] = (await waitFor(h, c.id, final)).last.status;
    }
    expect(outcomes).toEqual({
      'failing/test-password': 'AUTHENTICATION_ERROR',
      'temporary/test-password': 'TEMPORARY_ERROR',
      'test-user/nope': 'AUTHENTICATION_ERROR',
      'someone/test-password': 'AUTHENTICATION_ERROR',
    });
    const consents = (await raw(base, 'GET', '/api/v1/provider-consents', { headers: h })).json().providerConsents;
    const temp = consents.find((c: any) => c.status === 'TEMPORARY_ERROR');
    expect(temp.detailedError).toMatchObject({ type: 'PROVIDER_ERROR', details: { retryable: true } });
    expect(temp.detailedError.displayMessage).toMatch(/temporarily/);
  });

  test('multi-supplemental: two rounds as serialized JSON strings, each with a new statusUpdated; 400 for missing or malformed answers; 000000 fails', async () => {
    const { h } = await user();
    const c = (
      await raw(base, 'POST', '/api/v1/credentials', {
        headers: h,
        json: { providerName: 'se-test-other-multi-supplemental', fields: { username: 'test-user' } },
      })
    ).json();
    const r1 = (await waitFor(h, c.id, (x) => x.status === 'AWAITING_SUPPLEMENTAL_INFORMATION')).last;
    expect(typeof r1.supplementalInformation).toBe('string');
    const fields1 = JSON.parse(r1.supplementalInformation);
    expect(fields1.map((f: any) => f.name)).toEqual(['challenge', 'code1']);
    expect(fields1[0]).toMatchObject({ immutable: true, value: '4711' });
    expect(fields1[1]).toMatchObject({
      numeric: true,
      minLength: 4,
      maxLength: 8,
      patternError: 'The code is 4 to 8 digits.',
    });
    const sup = (json: unknown) =>
      raw(base, 'POST', `/api/v1/credentials/${c.id}/supplemental-information`, { headers: h, json });
    expect((await sup({})).status).toBe(400);
    expect((await sup({ information: 'x' })).status).toBe(400);
    expect((await sup({ information: { code1: 1234 } })).status).toBe(400);
    const miss = await sup({ information: { other: '1' } });
    expect(miss.status).toBe(400);
    expect(miss.json().errorMessage).toContain('code1');
    expect(
      (
        await raw(base, 'POST', `/api/v1/credentials/${c.id}/supplemental-information`, {
          headers: { ...h, 'content-type': 'application/json' },
          body: '{"information":',
        })
      ).status,
    ).toBe(400);
    expect((await sup({ information: { code1: '1234' } })).status).toBe(204);
    const r2 = (
      await waitFor(
        h,
        c.id,
        (x) => x.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' && x.statusUpdated !== r1.statusUpdated,
      )
    ).last;
    expect(r2.statusUpdated).toBeGreaterThan(r1.statusUpdated);
    const fields2 = JSON.parse(r2.supplementalInformation);
    expect(fields2.find((f: any) => f.name === 'code2')).toMatchObject({ masked: true });
    expect(fields2.find((f: any) => f.name === 'deviceName')).toMatchObject({ optional: true });
    expect((await sup({ information: { code2: '000000' } })).status).toBe(204);
    const end = (await waitFor(h, c.id, final)).last;
    expect(end.status).toBe('AUTHENTICATION_ERROR');
    expect(end.statusPayload).toMatch(/rejected/);
    expect((await sup({ information: { code2: '1234' } })).status).toBe(400);
  });

  test('eID: the bare UUID autostart token, a real PNG QR while waiting, 404 after; the failing variants end with distinct messages', async () => {
    const { h } = await user();
    // the statuses as the events recorded them: no poll can miss a short wait
    const statusesOf = (id: string) =>
      t.sandbox.events.recent.filter((e) => e.orderKey === id).map((e) => e.content as any);
    const c = (
      await raw(base, 'POST', '/api/v1/credentials', {
        headers: h,
        json: { providerName: 'se-test-other-eid-successful', fields: { username: 'test-user' } },
      })
    ).json();
    expect((await waitFor(h, c.id, final)).last.status).toBe('UPDATED');
    const waiting = statusesOf(c.id).find((x) => x.status === 'AWAITING_MOBILE_BANKID_AUTHENTICATION');
    expect(waiting.supplementalInformation).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(statusesOf(c.id).map((x) => x.status)).toEqual([
      'CREATED',
      'AUTHENTICATING',
      'AWAITING_MOBILE_BANKID_AUTHENTICATION',
      'UPDATING',
      'UPDATED',
    ]);
    expect((await raw(base, 'GET', `/api/v1/credentials/${c.id}/qr`, { headers: h })).status).toBe(404);
    const messages = new Set<string>();
    for (const p of [
      'se-test-other-eid-failing-cancelled',
      'se-test-other-eid-failing-inprogress',
      'se-test-other-eid-failing-timeout',
      'se-test-eid-failing',
    ]) {
      const f = (
        await raw(base, 'POST', '/api/v1/credentials', {
          headers: h,
          json: { providerName: p, fields: { username: 'test-user' } },
        })
      ).json();
      const { last } = await waitFor(h, f.id, final);
      expect(statusesOf(f.id).map((x) => x.status)).toContain('AWAITING_MOBILE_BANKID_AUTHENTICATION');
      expect(last.status).toBe('AUTHENTICATION_ERROR');
      messages.add(last.statusPayload);
    }
    expect(messages.size).toBe(4);
  });

  test('the QR endpoint answers a real PNG while the eID waits (slow sandbox)', async () => {
    const slow = await startTestSandbox({ authDelayMs: 2000 });
    try {
      const u = await userWithToken(slow.sandbox, SCOPES);
      const h = { authorization: `Bearer ${u.token}` };
      const c = (
        await raw(slow.sandbox.baseUrl, 'POST', '/api/v1/credentials', {
          headers: h,
          json: { providerName: 'se-test-eid-successful', fields: { username: 'test-user' } },
        })
      ).json();
      let qr;
      for (let i = 0; i < 100; i++) {
        qr = await raw(slow.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}/qr`, { headers: h });
        if (qr.status === 200) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(qr!.status).toBe(200);
      const png = Buffer.from(qr!.text.replace(/^data:image\/png;base64,/, ''), 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.readUInt32BE(16)).toBeGreaterThan(100); // width of a scannable code
      // one refresh at a time
      const again = await raw(slow.sandbox.baseUrl, 'POST', `/api/v1/credentials/${c.id}/refresh`, { headers: h });
      expect(again.status).toBe(409);
      const put = await raw(slow.sandbox.baseUrl, 'PUT', `/api/v1/credentials/${c.id}`, {
        headers: h,
        json: { fields: { username: 'test-user' } },
      });
      expect(put.status).toBe(409);
    } finally {
      await slow.close();
    }
  });

  test('third-party app: a serialized payload with android and ios blocks; the relayed callback finishes it and answers the app URI', async () => {
    const slow = await startTestSandbox({ authDelayMs: 5000 });
    try {
      const u = await userWithToken(slow.sandbox, SCOPES);
      const h = { authorization: `Bearer ${u.token}` };
      const sb = slow.sandbox.baseUrl;
      const c = (
        await raw(sb, 'POST', '/api/v1/credentials', {
          headers: h,
          json: {
            providerName: 'se-test-other-third-party-app-successful',
            fields: { username: 'test-user' },
            appUri: 'https://app.example/done',
          },
        })
      ).json();
      let cur: any;
      for (let i = 0; i < 200; i++) {
        cur = (await raw(sb, 'GET', `/api/v1/credentials/${c.id}`, { headers: h })).json();
        if (cur.status === 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION') break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const payload = JSON.parse(cur.supplementalInformation);
      expect(Object.keys(payload).sort()).toEqual([
        'android',
        'desktop',
        'downloadMessage',
        'downloadTitle',
        'ios',
        'upgradeMessage',
        'upgradeTitle',
      ]);
      expect(payload.desktop.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/test-bank\/authorize\?state=/);
      expect(Object.keys(payload.android).sort()).toEqual(['intent', 'packageName', 'requiredMinimumVersion']);
      expect(Object.keys(payload.ios).sort()).toEqual(['appStoreUrl', 'deepLinkUrl', 'scheme']);
      const state = new URL(payload.ios.deepLinkUrl).searchParams.get('state')!;
      expect(
        (await raw(sb, 'POST', '/api/v1/credentials/third-party/callback/relayed', { json: { parameters: {} } }))
          .status,
      ).toBe(400);
      expect(
        (
          await raw(sb, 'POST', '/api/v1/credentials/third-party/callback/relayed', {
            json: { state: 'nope', parameters: {} },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await raw(sb, 'POST', '/api/v1/credentials/third-party/callback/relayed', {
            json: { state, parameters: { x: 1 } },
          })
        ).status,
      ).toBe(400);
      const relayed = await raw(sb, 'POST', '/api/v1/credentials/third-party/callback/relayed', {
        json: { state, parameters: { code: 'abc' } },
      });
      expect(relayed.status).toBe(200);
      expect(relayed.json()).toEqual({ appUri: 'https://app.example/done' });
      for (let i = 0; i < 200; i++) {
        cur = (await raw(sb, 'GET', `/api/v1/credentials/${c.id}`, { headers: h })).json();
        if (cur.status === 'UPDATED') break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(cur.status).toBe('UPDATED');
    } finally {
      await slow.close();
    }
  });

  test('create: 400 validation, 404 unknown provider, 409 same provider and fields with the existing credentials in the body', async () => {
    const { h } = await user();
    const post = (json: unknown) => raw(base, 'POST', '/api/v1/credentials', { headers: h, json });
    expect((await post({ fields: {} })).status).toBe(400);
    expect((await post({ providerName: 'se-test-other-password' })).status).toBe(400);
    expect(
      (await post({ providerName: 'se-test-other-password', fields: { username: 'test-user' } })).json().errorMessage,
    ).toContain('password');
    expect(
      (await post({ providerName: 'se-test-other-password', fields: { username: 'test-user', password: 5 } })).status,
    ).toBe(400);
    expect(
      (
        await post({
          providerName: 'se-test-other-password',
          fields: { username: 'test-user', password: 'x', pin: '1' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await post({ providerName: 'se-handelsbanken-bankid', fields: { username: '12345' } })).json().errorMessage,
    ).toMatch(/personal identity number|at least/);
    expect((await post([1, 2])).status).toBe(400);
    expect(
      (
        await raw(base, 'POST', '/api/v1/credentials', {
          headers: { ...h, 'content-type': 'application/json' },
          body: '{nope',
        })
      ).status,
    ).toBe(400);
    expect((await post({ providerName: 'no-such-bank', fields: {} })).status).toBe(404);
    const ok = await post({ providerName: 'se-test-other-eid-successful', fields: { username: 'dup-user' } });
    expect(ok.status).toBe(200);
    const dup = await post({ providerName: 'se-test-other-eid-successful', fields: { username: 'dup-user' } });
    expect(dup.status).toBe(409);
    expect(dup.json().id).toBe(ok.json().id);
    expect(
      (await raw(base, 'GET', '/api/v1/credentials/ffffffffffffffffffffffffffffffff', { headers: h })).status,
    ).toBe(404);
    expect(
      (await raw(base, 'POST', `/api/v1/credentials/${ok.json().id}/refresh?optIn=maybe`, { headers: h })).status,
    ).toBe(400);
    expect(
      (await raw(base, 'POST', `/api/v1/credentials/${ok.json().id}/refresh?items=EVERYTHING`, { headers: h })).status,
    ).toBe(400);
  });

  test('opt-in: one checkbox per account with additionalInfo; only opted-in accounts are refreshed; the state comes back as it was', async () => {
    const { h, userId } = await user();
    const c = (
      await raw(base, 'POST', '/api/v1/credentials?optIn=true', {
        headers: h,
        json: { providerName: 'se-test-other-password', fields: { username: 'test-user', password: 'test-password' } },
      })
    ).json();
    const w = (await waitFor(h, c.id, (x) => x.status === 'AWAITING_SUPPLEMENTAL_INFORMATION')).last;
    const fields = JSON.parse(w.supplementalInformation);
    expect(fields).toHaveLength(5);
    for (const f of fields) {
      expect(f).toMatchObject({ checkbox: true, pattern: 'true/false', value: 'false' });
      const info = JSON.parse(f.additionalInfo);
      expect(Object.keys(info)).toEqual(
        expect.arrayContaining(['accountName', 'accountType', 'balance', 'currencyCode', 'holderName', 'iban']),
      );
      // a JSON number, as the real service sends it, written with the exact digits
      expect(typeof info.balance).toBe('number');
      expect(f.additionalInfo).toMatch(/"balance":-?\d+\.\d{2}[,}]/);
      if (info.accountType === 'INVESTMENT') expect(info.portfolioTypes).toEqual(['ISK']);
    }
    const pick = fields.filter((f: any) => ['CHECKING', 'SAVINGS'].includes(JSON.parse(f.additionalInfo).accountType));
    const information = Object.fromEntries(fields.map((f: any) => [f.name, pick.includes(f) ? 'true' : 'false']));
    expect(
      (
        await raw(base, 'POST', `/api/v1/credentials/${c.id}/supplemental-information`, {
          headers: h,
          json: { information: { ...information, [fields[0].name]: 'yes' } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await raw(base, 'POST', `/api/v1/credentials/${c.id}/supplemental-information`, {
          headers: h,
          json: { information },
        })
      ).status,
    ).toBe(204);
    expect((await waitFor(h, c.id, final)).last.status).toBe('UPDATED');
    const types = [...t.sandbox.store.accounts.values()]
      .filter((a) => a.userId === userId)
      .map((a) => a.type)
      .sort();
    expect(types).toEqual(['CHECKING', 'SAVINGS']);
    expect((await raw(base, 'POST', `/api/v1/credentials/${c.id}/refresh?optIn=true`, { headers: h })).status).toBe(
      204,
    );
    const again = (await waitFor(h, c.id, (x) => x.status === 'AWAITING_SUPPLEMENTAL_INFORMATION')).last;
    const values = Object.fromEntries(JSON.parse(again.supplementalInformation).map((f: any) => [f.name, f.value]));
    expect(values).toEqual(information);
  });

  test('deletion: 204, then the accounts go only when the last credentials giving access to them go', async () => {
    const { h, userId } = await user();
    const a = (
      await raw(base, 'POST', '/api/v1/credentials', {
        headers: h,
        json: { providerName: 'se-test-other-password', fields: { username: 'test-user', password: 'test-password' } },
      })
    ).json();
    const b = (
      await raw(base, 'POST', '/api/v1/credentials', {
        headers: h,
        json: { providerName: 'se-test-eid-successful', fields: { username: 'test-user' } },
      })
    ).json();
    await waitFor(h, a.id, final);
    await waitFor(h, b.id, final);
    const mine = () => [...t.sandbox.store.accounts.values()].filter((x) => x.userId === userId);
    const txCount = () => [...t.sandbox.store.transactions.values()].filter((x) => x.userId === userId).length;
    expect(mine()).toHaveLength(5);
    expect(mine().every((x) => x.credentialsIds.length === 2)).toBe(true);
    const n = txCount();
    expect(n).toBeGreaterThan(100);
    expect((await raw(base, 'DELETE', `/api/v1/credentials/${a.id}`, { headers: h })).status).toBe(204);
    expect((await raw(base, 'GET', `/api/v1/credentials/${a.id}`, { headers: h })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 30));
    expect(mine()).toHaveLength(5);
    expect(txCount()).toBe(n);
    expect((await raw(base, 'DELETE', `/api/v1/credentials/${b.id}`, { headers: h })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 30));
    expect(mine()).toHaveLength(0);
    expect(txCount()).toBe(0);
    expect((await raw(base, 'DELETE', `/api/v1/credentials/${b.id}`, { headers: h })).status).toBe(404);
    const deleted = t.sandbox.events.recent.filter((e) => e.orderKey === b.id).pop()!;
    expect(deleted.content.status).toBe('DELETED');
  });

  test('another user cannot see or touch the credentials', async () => {
    const a = await user();
    const b = await user();
    const c = (
      await raw(base, 'POST', '/api/v1/credentials', {
        headers: a.h,
        json: { providerName: 'se-test-other-password', fields: { username: 'x', password: 'y' } },
      })
    ).json();
    expect((await raw(base, 'GET', `/api/v1/credentials/${c.id}`, { headers: b.h })).status).toBe(404);
    expect((await raw(base, 'DELETE', `/api/v1/credentials/${c.id}`, { headers: b.h })).status).toBe(404);
    expect((await raw(base, 'GET', '/api/v1/credentials/list', { headers: b.h })).json().credentials).toEqual([]);
  });

  test('every market has its -test-password and -test-multi-supplemental providers, and both reach UPDATED', async () => {
    const { h } = await user();
    const ended: Record<string, string> = {};
    await Promise.all(
      MARKETS.map(async (m) => {
        const lower = m.toLowerCase();
        const pw = (
          await raw(base, 'POST', '/api/v1/credentials', {
            headers: h,
            json: {
              providerName: `${lower}-test-password`,
              fields: { username: 'test-user', password: 'test-password' },
            },
          })
        ).json();
        const ms = (
          await raw(base, 'POST', '/api/v1/credentials', {
            headers: h,
            json: { providerName: `${lower}-test-multi-supplemental`, fields: { username: 'test-user' } },
          })
        ).json();
        for (const name of ['code1', 'code2']) {
          await waitFor(
            h,
            ms.id,
            (x) =>
              x.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' &&
              (x.supplementalInformation ?? '').includes(`"${name}"`),
          );
          expect(
            (
              await raw(base, 'POST', `/api/v1/credentials/${ms.id}/supplemental-information`, {
                headers: h,
                json: { information: { [name]: '4321' } },
              })
            ).status,
          ).toBe(204);
        }
        ended[`${lower}-test-password`] = (await waitFor(h, pw.id, final, 10_000)).last.status;
        ended[`${lower}-test-multi-supplemental`] = (await waitFor(h, ms.id, final, 10_000)).last.status;
      }),
    );
    expect(Object.keys(ended)).toHaveLength(MARKETS.length * 2);
    expect(new Set(Object.values(ended))).toEqual(new Set(['UPDATED']));
  });

  test('session expiry: a plain refresh after the session ends is SESSION_EXPIRED with a detailedError; authenticate renews it without new data', async () => {
    const { SandboxClock } = await import('../../src/sandbox/store.js');
    const clock = new SandboxClock();
    const own = await startTestSandbox({ authDelayMs: 5, clock });
    try {
      const sb = own.sandbox.baseUrl;
      const u = await userWithToken(own.sandbox, SCOPES);
      const h = { authorization: `Bearer ${u.token}` };
      const get = async (id: string) => (await raw(sb, 'GET', `/api/v1/credentials/${id}`, { headers: h })).json();
      const until = async (id: string, pred: (c: any) => boolean) => {
        for (let i = 0; i < 400; i++) {
          const c = await get(id);
          if (pred(c)) return c;
          await new Promise((r) => setTimeout(r, 3));
        }
        throw new Error('timeout');
      };
      const c = (
        await raw(sb, 'POST', '/api/v1/credentials', {
          headers: h,
          json: {
            providerName: 'se-test-other-password',
            fields: { username: 'test-user', password: 'test-password' },
          },
        })
      ).json();
      const done = await until(c.id, (x) => x.status === 'UPDATED');
      const txBefore = own.sandbox.store.transactions.size;
      // a plain refresh within the session needs no authentication
      expect((await raw(sb, 'POST', `/api/v1/credentials/${c.id}/refresh`, { headers: h })).status).toBe(204);
      const again = await until(c.id, (x) => x.status === 'UPDATED' && x.statusUpdated > done.statusUpdated);
      clock.advance(91 * 86_400_000);
      // the user token expired with the jump: a new one for the same user
      const fresh = await (async () => {
        const client = await clientToken(own.sandbox, ['authorization:grant']);
        const g = await raw(sb, 'POST', '/api/v1/oauth/authorization-grant', {
          headers: { authorization: `Bearer ${client}` },
          form: { user_id: u.userId, scope: SCOPES.join(',') },
        });
        const tk = await raw(sb, 'POST', '/api/v1/oauth/token', {
          form: {
            client_id: own.sandbox.clientId,
            client_secret: own.sandbox.clientSecret,
            grant_type: 'authorization_code',
            code: g.json().code,
          },
        });
        return tk.json().access_token as string;
      })();
      h.authorization = `Bearer ${fresh}`;
      expect((await raw(sb, 'POST', `/api/v1/credentials/${c.id}/refresh`, { headers: h })).status).toBe(204);
      const expired = await until(c.id, (x) => x.status === 'SESSION_EXPIRED');
      expect(expired.statusUpdated).toBeGreaterThan(again.statusUpdated);
      const consent = (await raw(sb, 'GET', '/api/v1/provider-consents', { headers: h })).json().providerConsents[0];
      expect(consent).toMatchObject({
        status: 'SESSION_EXPIRED',
        detailedError: { details: { reason: 'SESSION_EXPIRED', retryable: false } },
      });
      const txAtExpiry = own.sandbox.store.transactions.size;
      expect((await raw(sb, 'POST', `/api/v1/credentials/${c.id}/authenticate`, { headers: h, json: {} })).status).toBe(
        204,
      );
      const renewed = await until(c.id, (x) => x.status === 'UPDATED');
      expect(renewed.sessionExpiryDate).toBeGreaterThan(clock.now());
      // authenticate renews the session only: no data fetched
      expect(own.sandbox.store.transactions.size).toBe(txAtExpiry);
      expect(txAtExpiry).toBeGreaterThanOrEqual(txBefore);
    } finally {
      await own.close();
    }
  });

  test('hostile input gets a 4xx with a useful body, never a 500', async () => {
    const { h } = await user();
    const c = (
      await raw(base, 'POST', '/api/v1/credentials', {
        headers: h,
        json: { providerName: 'se-test-other-multi-supplemental', fields: { username: 'test-user' } },
      })
    ).json();
    const cases: Array<[string, string, unknown, string?]> = [
      ['POST', '/api/v1/credentials', { providerName: 5, fields: {} }],
      ['POST', '/api/v1/credentials', { providerName: 'se-test-other-password', fields: [] }],
      [
        'POST',
        '/api/v1/credentials',
        { providerName: 'se-test-other-password', fields: { username: 'x'.repeat(5000), password: 'y' } },
      ],
      [
        'POST',
        '/api/v1/credentials',
        { providerName: 'se-test-other-password', fields: { username: 'a', password: 'b' }, triggerRefresh: 'yes' },
      ],
      ['PUT', `/api/v1/credentials/${c.id}`, { providerName: 'another-provider' }],
      ['PUT', `/api/v1/credentials/${c.id}`, 'just a string'],
      ['POST', `/api/v1/credentials/${c.id}/supplemental-information`, { information: null }],
      ['POST', `/api/v1/credentials/${c.id}/supplemental-information`, { information: { code1: { nested: true } } }],
      ['POST', `/api/v1/credentials/${c.id}/refresh`, [1, 2, 3]],
      ['POST', '/api/v1/credentials/third-party/callback/relayed', { state: 7, parameters: {} }],
      ['POST', '/api/v1/credentials/third-party/callback/relayed', { state: 'x', parameters: 'nope' }],
    ];
    for (const [method, path, json] of cases) {
      const r = await raw(base, method, path, { headers: h, json });
      expect(r.status, `${method} ${path} ${JSON.stringify(json).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.json().errorMessage).toBeTruthy();
    }
    const notJson = await raw(base, 'POST', '/api/v1/credentials', {
      headers: { ...h, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(notJson.status).toBe(415);
    const bad = await raw(base, 'GET', '/api/v1/credentials/%E0%A4%A', { headers: h });
    expect(bad.status).toBe(400);
    const page = await raw(base, 'GET', '/sandbox/test-bank/authorize?state=%3Cscript%3E');
    expect(page.status).toBe(400);
    expect(page.text).not.toContain('<script>');
  });

  test('a sandbox restarted from its data file keeps the credentials; a refresh it was running ends in TEMPORARY_ERROR, and can be refreshed again', async () => {
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/cli.js');
    const dataFile = join(tempDir(), 'state.json');
    const first = await startTestSandbox({ authDelayMs: 60_000, dataFile, seed: 3 });
    const u = await userWithToken(first.sandbox, SCOPES);
    const h = { authorization: `Bearer ${u.token}` };
    const c = (
      await raw(first.sandbox.baseUrl, 'POST', '/api/v1/credentials', {
        headers: h,
        json: { providerName: 'se-test-eid-successful', fields: { username: 'test-user' } },
      })
    ).json();
    for (let i = 0; i < 200; i++) {
      if (
        (await raw(first.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: h })).json().status ===
        'AWAITING_MOBILE_BANKID_AUTHENTICATION'
      )
        break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await first.close();
    const second = await startTestSandbox({ authDelayMs: 5, dataFile, seed: 3 });
    try {
      const got = await raw(second.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: h });
      expect(got.status).toBe(200);
      expect(got.json()).toMatchObject({
        status: 'TEMPORARY_ERROR',
        statusPayload: expect.stringMatching(/restarted/),
      });
      expect(
        (await raw(second.sandbox.baseUrl, 'POST', `/api/v1/credentials/${c.id}/refresh`, { headers: h })).status,
      ).toBe(204);
      let status = '';
      for (let i = 0; i < 400 && status !== 'UPDATED'; i++) {
        status = (await raw(second.sandbox.baseUrl, 'GET', `/api/v1/credentials/${c.id}`, { headers: h })).json()
          .status;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(status).toBe('UPDATED');
    } finally {
      await second.close();
    }
  });
});
