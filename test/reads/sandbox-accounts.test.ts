// Accounts, exclusion semantics, balances, balance refresh and its quota, the other reads, and HTTP
// Basic read-back for connector users, on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { accountIncluded } from '../../src/sandbox/finance/data.js';
import { addAccount, addTx, demo, reader, userToken, walk, type Reader } from './helpers.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 7 });
});
afterAll(() => t.close());

describe('accounts', () => {
  let r: Reader;
  beforeAll(async () => {
    r = await reader(t.sandbox);
    demo(t.sandbox, r.userId);
  });

  it('lists the demo accounts with exact balances, written as JSON numbers from the decimal text', async () => {
    const res = await r.get('/api/v1/accounts/list');
    expect(res.status).toBe(200);
    const { accounts } = res.json();
    expect(accounts.map((a: any) => a.type).sort()).toEqual(['CHECKING', 'INVESTMENT', 'LOAN', 'MORTGAGE', 'SAVINGS']);
    const mortgage = accounts.find((a: any) => a.type === 'MORTGAGE');
    const rec = t.sandbox.store.accounts.get(mortgage.id)!;
    // the literal in the body is exactly the stored decimal
    expect(res.text).toContain(`"balance":${rec.balance}`);
    expect(rec.balance).toMatch(/^-\d+\.\d{2}$/);
    expect(mortgage.currencyDenominatedBalance.currencyCode).toBe('SEK');
    expect(mortgage.accountExclusion).toBe('NONE');
  });

  it('PUT changes only the updatable properties and answers 400 to others or bad values, 404 to unknown ids', async () => {
    const id = (await r.get('/api/v1/accounts/list')).json().accounts[0].id;
    const ok = await r.put(`/api/v1/accounts/${id}`, {
      name: 'Bills',
      favored: true,
      type: 'SAVINGS',
      accountNumber: '1234-5',
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ id, name: 'Bills', favored: true, type: 'SAVINGS', accountNumber: '1234-5' });
    // the whole object sent back unchanged is fine (GET, edit, PUT)
    const whole = { ...ok.json(), name: 'Bills 2' };
    expect((await r.put(`/api/v1/accounts/${id}`, whole)).status).toBe(200);
    for (const [body, field] of [
      [{ balance: 1 }, 'balance'],
      [{ id: 'x' }, 'id'],
      [{ accountExclusion: 'SOME' }, 'accountExclusion'],
      [{ type: 'BOAT' }, 'type'],
      [{ favored: 'yes' }, 'favored'],
      [{ name: '' }, 'name'],
      [{ excluded: false, accountExclusion: 'PFM_AND_SEARCH' }, 'excluded'],
    ] as const) {
      const res = await r.put(`/api/v1/accounts/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json().errorMessage).toContain(field);
    }
    expect(
      (
        await raw(t.sandbox.baseUrl, 'PUT', `/api/v1/accounts/${id}`, {
          headers: { authorization: `Bearer ${r.token}`, 'content-type': 'application/json' },
          body: '{"name":',
        })
      ).status,
    ).toBe(400);
    expect((await r.put('/api/v1/accounts/0000', { name: 'x' })).status).toBe(404);
    expect((await r.get('/api/v1/accounts/0000/balances')).status).toBe(404);
  });

  it('another user cannot see or change the account', async () => {
    const other = await reader(t.sandbox);
    const id = (await r.get('/api/v1/accounts/list')).json().accounts[0].id;
    expect((await other.put(`/api/v1/accounts/${id}`, { name: 'mine' })).status).toBe(404);
    expect((await other.get(`/api/v1/accounts/${id}/balances`)).status).toBe(404);
    expect((await other.get('/api/v1/accounts/list')).json().accounts).toEqual([]);
  });

  it('balances are exact: booked and available less the reserved amount', async () => {
    const a = addAccount(t.sandbox.store, r.userId, {
      balance: '100.10',
      reservedAmount: '0.15',
      availableCredit: '5000',
    });
    const b = (await r.get(`/api/v1/accounts/${a.id}/balances`)).json();
    // the vendor reference's v1 shape: flat, scale and unscaledValue as JSON integers
    expect(b.balances.booked).toEqual({ currencyCode: 'SEK', scale: 2, unscaledValue: 10010 });
    expect(b.balances.available).toEqual({ currencyCode: 'SEK', scale: 2, unscaledValue: 9995 });
    expect(b.balances.creditLimit).toEqual({ currencyCode: 'SEK', scale: 0, unscaledValue: 5000 });
  });
});

describe('accountExclusion', () => {
  it('AGGREGATION drops the data except name and number; PFM_* keep the data but leave finance features', async () => {
    const r = await reader(t.sandbox);
    const accounts = demo(t.sandbox, r.userId, 'excl');
    const checking = accounts.find((a) => a.type === 'CHECKING')!;
    const savings = accounts.find((a) => a.type === 'SAVINGS')!;
    const before = await walk(r, `accountIdIn=${checking.id}`);
    expect(before.ids.length).toBeGreaterThan(10);

    const res = await r.put(`/api/v1/accounts/${checking.id}`, { accountExclusion: 'AGGREGATION' });
    expect(res.status).toBe(200);
    const shown = res.json();
    expect(shown).toMatchObject({
      name: checking.name,
      accountNumber: checking.accountNumber,
      accountExclusion: 'AGGREGATION',
      excluded: true,
      balance: null,
      holderName: null,
    });
    expect((await walk(r, `accountIdIn=${checking.id}`)).ids).toEqual([]);
    expect((await r.get(`/api/v1/accounts/${checking.id}/balances`)).status).toBe(404);
    // removed, not hidden: back to NONE shows nothing old
    await r.put(`/api/v1/accounts/${checking.id}`, { accountExclusion: 'NONE' });
    expect((await walk(r, `accountIdIn=${checking.id}`)).ids).toEqual([]);

    for (const ex of ['PFM_DATA', 'PFM_AND_SEARCH'] as const) {
      const u = (await r.put(`/api/v1/accounts/${savings.id}`, { accountExclusion: ex })).json();
      expect(u).toMatchObject({ accountExclusion: ex, excluded: ex === 'PFM_AND_SEARCH' });
      const rec = t.sandbox.store.accounts.get(savings.id)!;
      expect(accountIncluded(rec, 'pfm')).toBe(false);
      expect(accountIncluded(rec, 'search')).toBe(ex === 'PFM_DATA');
      expect((await walk(r, `accountIdIn=${savings.id}`)).ids.length).toBeGreaterThan(0);
      expect((await r.get(`/api/v1/accounts/${savings.id}/balances`)).status).toBe(200);
    }
    // the deprecated flag: excluded=false clears, excluded=true means PFM_AND_SEARCH
    expect((await r.put(`/api/v1/accounts/${savings.id}`, { excluded: false })).json().accountExclusion).toBe('NONE');
    expect((await r.put(`/api/v1/accounts/${savings.id}`, { excluded: true })).json().accountExclusion).toBe(
      'PFM_AND_SEARCH',
    );
  });
});

describe('balance refresh', () => {
  it('400 problem+json for empty and unknown accounts; FINISHED after a short delay; 5 per 2 hours, then 429', async () => {
    const r = await reader(t.sandbox);
    const [acc] = demo(t.sandbox, r.userId, 'refresh');
    for (const body of [{}, { accountId: '' }, { accountId: 'nope' }, { accountId: 5 }]) {
      const res = await r.post('/api/v1/balance-refresh', body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.json()).toMatchObject({
        type: 'urn:errors:invalid-argument',
        title: 'Invalid request params',
        invalidParams: [{ name: 'accountId' }],
      });
    }
    const created = await r.post('/api/v1/balance-refresh', { accountId: acc!.id });
    expect(created.status).toBe(200);
    const { balanceRefreshId, credentialsId } = created.json();
    expect(credentialsId).toBe(acc!.credentialsIds[0]);
    let status = (await r.get(`/api/v1/balance-refresh/${balanceRefreshId}`)).json().status;
    expect(status).toBe('REFRESHING');
    for (let i = 0; i < 50 && status !== 'FINISHED'; i++) {
      await new Promise((res) => setTimeout(res, 50));
      status = (await r.get(`/api/v1/balance-refresh/${balanceRefreshId}`)).json().status;
    }
    expect(status).toBe('FINISHED');
    for (let i = 0; i < 4; i++)
      expect((await r.post('/api/v1/balance-refresh', { accountId: acc!.id })).status).toBe(200);
    const sixth = await r.post('/api/v1/balance-refresh', { accountId: acc!.id });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('content-type')).toContain('application/problem+json');
    expect(sixth.json()).toMatchObject({
      type: 'about:errors:too-many-requests',
      title: 'Too Many Requests',
      status: 429,
    });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    t.sandbox.clock.advance(2 * 60 * 60 * 1000 + 1000);
    const fresh = await userToken(t.sandbox, r.userId);
    const again = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/balance-refresh', {
      headers: { authorization: `Bearer ${fresh}` },
      json: { accountId: acc!.id },
    });
    expect(again.status).toBe(200);
  });

  it('status: 403 problem+json when the credentials no longer give access; 404 for unknown ids', async () => {
    const r = await reader(t.sandbox);
    const [acc] = demo(t.sandbox, r.userId, 'refresh-403');
    const id = (await r.post('/api/v1/balance-refresh', { accountId: acc!.id })).json().balanceRefreshId;
    t.sandbox.store.accounts.get(acc!.id)!.credentialsIds = [];
    const res = await r.get(`/api/v1/balance-refresh/${id}`);
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ type: 'urn:errors:invalid-credentials', title: 'Invalid credential' });
    expect((await r.get('/api/v1/balance-refresh/unknown')).status).toBe(404);
  });
});

describe('HTTP Basic read-back of a connector user', () => {
  it('reads accounts and transactions with <externalUserId>:<token>, and is refused with a wrong token', async () => {
    const s = t.sandbox.store;
    const id = s.ids.next();
    s.addUser({
      id,
      externalUserId: 'ext-basic-1',
      market: 'SE',
      locale: 'sv_SE',
      created: s.clock.now(),
      connector: { token: 's3cret-token', blocked: false, credentialsId: 'f'.repeat(32) },
    });
    const a = addAccount(s, id, { credentialsIds: ['f'.repeat(32)], externalId: 'acc-1' });
    addTx(s, a, '-0.05', '2025-06-01', { externalId: 'tx-1', payload: { k: 'v' } });
    const basic = (u: string, p: string) => ({ authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });
    const list = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/accounts/list', {
      headers: basic('ext-basic-1', 's3cret-token'),
    });
    expect(list.status).toBe(200);
    expect(list.json().accounts.map((x: any) => x.id)).toEqual([a.id]);
    const txs = await raw(t.sandbox.baseUrl, 'GET', '/data/v2/transactions', {
      headers: basic('ext-basic-1', 's3cret-token'),
    });
    expect(txs.json().transactions[0]).toMatchObject({
      amount: { value: { unscaledValue: '-5', scale: '2' } },
      partnerPayload: { k: 'v' },
    });
    expect(
      (await raw(t.sandbox.baseUrl, 'GET', '/data/v2/transactions', { headers: basic('ext-basic-1', 'wrong') })).status,
    ).toBe(401);
  });
});

describe('identities, investments, loans, categories', () => {
  let r: Reader;
  beforeAll(async () => {
    r = await reader(t.sandbox);
    demo(t.sandbox, r.userId, 'other');
  });

  it('identities: one per credentials, a valid personal number and matching date of birth', async () => {
    const { identities } = (await r.get('/api/v1/identities')).json();
    expect(identities).toHaveLength(1);
    const id = identities[0];
    expect(Object.keys(id).sort()).toEqual(['dateOfBirth', 'financialInstitutionId', 'name', 'providerName', 'ssn']);
    expect(id.ssn).toMatch(/^\d{12}$/);
    expect(id.dateOfBirth).toBe(`${id.ssn.slice(0, 4)}-${id.ssn.slice(4, 6)}-${id.ssn.slice(6, 8)}`);
  });

  it('investments: portfolios of the investment accounts, filtered by portfolioType, exact sums', async () => {
    const all = (await r.get('/api/v1/investments')).json().portfolios;
    expect(all).toHaveLength(1);
    expect(all[0].type).toBe('ISK');
    expect((await r.get('/api/v1/investments?portfolioType=ISK&portfolioType=KF')).json().portfolios).toHaveLength(1);
    expect((await r.get('/api/v1/investments?portfolioType=PENSION')).json().portfolios).toHaveLength(0);
    expect((await r.get('/api/v1/investments?portfolioType=GOLD')).status).toBe(400);
    // cash plus instrument values is the account balance, to the cent (checked on the literal text)
    const text = (await r.get('/api/v1/investments')).text;
    const cents = (key: string) =>
      [...text.matchAll(new RegExp(`"${key}":(-?[\\d.]+)`, 'g'))].map((m) => BigInt(m[1]!.replace('.', '')));
    expect(cents('cashValue')[0]! + cents('marketValue').reduce((x, y) => x + y, 0n)).toBe(cents('totalValue')[0]);
  });

  it('loans: the mortgage and the car loan, interest as a fraction, exact total', async () => {
    const res = await r.get('/api/v1/loans');
    const body = res.json();
    expect(body.loans.map((l: any) => l.type).sort()).toEqual(['MORTGAGE', 'VEHICLE']);
    expect(body.loans.find((l: any) => l.type === 'MORTGAGE').interest).toBe(0.0389);
    const balances = [...res.text.matchAll(/"balance":(-?[\d.]+)/g)].map((m) => BigInt(m[1]!.replace('.', '')));
    expect(BigInt(/"totalLoanAmount":(-?[\d.]+)/.exec(res.text)![1]!.replace('.', ''))).toBe(
      balances.reduce((x, y) => x + y, 0n),
    );
  });

  it('categories: flat with parent links; the user locale wins, else the query, else en_US', async () => {
    const mine = (await r.get('/api/v1/categories?locale=en_US')).json();
    const ids = new Set(mine.map((c: any) => c.id));
    for (const c of mine) if (c.parent) expect(ids.has(c.parent)).toBe(true);
    expect(mine.find((c: any) => c.code === 'expenses:food').primaryName).toBe('Mat & Dryck');
    const anon = (q: string) => raw(t.sandbox.baseUrl, 'GET', `/api/v1/categories${q}`).then((x) => x.json());
    expect((await anon('')).find((c: any) => c.code === 'expenses:food').primaryName).toBe('Food & Drinks');
    expect((await anon('?locale=sv_SE')).find((c: any) => c.code === 'expenses:food').primaryName).toBe('Mat & Dryck');
    expect((await raw(t.sandbox.baseUrl, 'GET', '/api/v1/categories?locale=%3Cscript%3E')).status).toBe(400);
  });
});

describe('connector push, then Basic read-back', () => {
  it('what the connector pushed is read back exactly with <externalId>:<token>', async () => {
    const base = t.sandbox.baseUrl;
    const h = { authorization: `Token ${t.sandbox.connectorToken}` };
    expect(
      (
        await raw(base, 'POST', '/connector/users', {
          headers: h,
          json: { externalId: 'pushed-1', token: 'pushed-secret', market: 'SE' },
        })
      ).status,
    ).toBe(204);
    const accounts = [
      { externalId: 'acc-a', name: 'Pushed', number: '123', balance: 1234567890123.45, type: 'CHECKING' },
    ];
    expect(
      (await raw(base, 'POST', '/connector/users/pushed-1/accounts', { headers: h, json: { accounts } })).status,
    ).toBe(204);
    const container = {
      type: 'HISTORICAL',
      transactionAccounts: [
        {
          externalId: 'acc-a',
          balance: 1234567890123.45,
          transactions: [
            { externalId: 't1', amount: -0.05, date: Date.UTC(2025, 4, 1), description: 'Tiny', type: 'DEFAULT' },
            {
              externalId: 't2',
              amount: 10.005,
              date: Date.UTC(2025, 4, 2),
              description: 'Mils',
              type: 'DEFAULT',
              payload: { PENDING_TRANSACTION_EXPIRATION_DATE: 1767225600000 },
            },
          ],
        },
      ],
    };
    expect(
      (await raw(base, 'POST', '/connector/users/pushed-1/transactions', { headers: h, json: container })).status,
    ).toBe(204);
    const basic = { authorization: `Basic ${Buffer.from('pushed-1:pushed-secret').toString('base64')}` };
    const list = await raw(base, 'GET', '/api/v1/accounts/list', { headers: basic });
    expect(list.text).toContain('"balance":1234567890123.45');
    const txs = (
      await raw(base, 'GET', '/data/v2/transactions?bookedDateGte=2025-05-01&bookedDateLte=2025-05-02', {
        headers: basic,
      })
    ).json().transactions;
    expect(txs.map((x: any) => x.amount.value)).toEqual([
      { scale: '3', unscaledValue: '10005' },
      { scale: '2', unscaledValue: '-5' },
    ]);
    expect(txs[0].identifiers.providerTransactionId).toBe('t2');
    expect(txs[0].partnerPayload).toMatchObject({ PENDING_TRANSACTION_EXPIRATION_DATE: 1767225600000 });
  });
});

describe('/data/v2/accounts', () => {
  it('pages with the token passed on, filters by typeIn, exact balances, at most 100 a page', async () => {
    const r = await reader(t.sandbox);
    const accounts = demo(t.sandbox, r.userId, 'v2accounts');
    const seen: any[] = [];
    let token = '';
    let pages = 0;
    do {
      const res = await r.get(`/data/v2/accounts?pageSize=2${token ? `&pageToken=${token}` : ''}`);
      expect(res.status).toBe(200);
      const body = res.json();
      seen.push(...body.accounts);
      token = body.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen.map((a) => a.id).sort()).toEqual(accounts.map((a) => a.id).sort());
    const rec = accounts.find((a) => a.type === 'MORTGAGE')!;
    const mortgage = seen.find((a) => a.id === rec.id);
    // the reference's v2 types: a mortgage is UNDEFINED there
    expect(mortgage.type).toBe('UNDEFINED');
    expect(mortgage.balances.booked.amount).toEqual({
      currencyCode: 'SEK',
      value: { scale: '2', unscaledValue: rec.balance.replace('.', '') },
    });
    expect(mortgage.identifiers.iban.iban).toBe(rec.iban);
    const loans = (await r.get('/data/v2/accounts?typeIn=LOAN&typeIn=MORTGAGE')).json().accounts;
    expect(loans.map((a: any) => a.id).sort()).toEqual(
      accounts
        .filter((a) => a.type === 'LOAN' || a.type === 'MORTGAGE')
        .map((a) => a.id)
        .sort(),
    );
    const checking = (await r.get('/data/v2/accounts?typesIn=CHECKING&typesIn=SAVINGS')).json().accounts;
    expect(checking.map((a: any) => a.type).sort()).toEqual(['CHECKING', 'SAVINGS']);
    expect((await r.get('/data/v2/accounts?typesIn=MORTGAGE')).status).toBe(400);
    // the reference: "will not return more than 100 accounts per page": a larger pageSize is answered
    const many = await reader(t.sandbox);
    for (let i = 0; i < 130; i++) addAccount(t.sandbox.store, many.userId, { name: `Account ${i}` });
    const big = await many.get('/data/v2/accounts?pageSize=1000');
    expect(big.status).toBe(200);
    expect(big.json().accounts).toHaveLength(100);
    const rest = (await many.get(`/data/v2/accounts?pageSize=101&pageToken=${big.json().nextPageToken}`)).json();
    expect(rest.accounts).toHaveLength(30);
    expect(rest.nextPageToken).toBe('');
    for (const bad of ['0', '-1', 'x']) expect((await r.get(`/data/v2/accounts?pageSize=${bad}`)).status).toBe(400);
    expect((await r.get('/data/v2/accounts?typeIn=BOAT')).status).toBe(400);
    expect((await r.get('/data/v2/accounts?pageToken=!!')).status).toBe(400);
  });
});

describe('/data/v2/investment-accounts as the reference writes them', () => {
  it('financialProduct is a documented product, lastRefreshed whole seconds, holdingPercentageReturn a fraction', async () => {
    const r = await reader(t.sandbox, 'SE', ['investment-accounts:readonly']);
    const accounts = demo(t.sandbox, r.userId, 'v2investments');
    const rec = accounts.find((a) => a.type === 'INVESTMENT')!;
    const list = (await r.get('/data/v2/investment-accounts')).json().investmentAccounts;
    const inv = list.find((a: any) => a.id === rec.id);
    // the reference's products: SE_ISK, SE_KF, SE_AF, SE_PENSION, ES_INVESTMENT, ES_PENSION
    expect(inv.financialProduct).toBe('SE_ISK');
    expect(inv.dates.lastRefreshed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const holdings = (await r.get(`/data/v2/investment-accounts/${rec.id}/holdings`)).json().holdings;
    expect(holdings.length).toBeGreaterThan(0);
    for (const h of holdings) {
      // "in decimal form, e.g. 6% is expressed as 0.06": return / (value - return)
      const ret = Number(h.holdingReturn.value.unscaledValue) / 10 ** h.holdingReturn.value.scale;
      const value = Number(h.holdingValue.value.unscaledValue) / 10 ** h.holdingValue.value.scale;
      expect(Math.abs(h.holdingPercentageReturn - ret / (value - ret))).toBeLessThan(0.0001);
    }
  });

  it('holdings: 10 a page by default, pageSize 1 to 100, and a page token only for its own account', async () => {
    const r = await reader(t.sandbox, 'SE', ['investment-accounts:readonly']);
    const first = demo(t.sandbox, r.userId, 'holdings-a').find((a) => a.type === 'INVESTMENT')!;
    const second = demo(t.sandbox, r.userId, 'holdings-b').find((a) => a.type === 'INVESTMENT')!;
    const path = (a: { id: string }, q = '') => `/data/v2/investment-accounts/${a.id}/holdings${q}`;
    const all = (await r.get(path(first))).json();
    expect(all.holdings.length).toBeGreaterThan(1);
    expect(all.holdings.length).toBeLessThanOrEqual(10);
    expect(all.nextPageToken).toBe('');
    const one = (await r.get(path(first, '?pageSize=1'))).json();
    expect(one.holdings).toHaveLength(1);
    expect(one.nextPageToken).not.toBe('');
    const next = (await r.get(path(first, `?pageSize=1&pageToken=${one.nextPageToken}`))).json();
    expect(next.holdings[0].id).toBe(all.holdings[1].id);
    for (const q of ['?pageSize=0', '?pageSize=101', '?pageSize=x'])
      expect((await r.get(path(first, q))).status).toBe(400);
    // the first account's token for the second account's holdings
    const other = await r.get(path(second, `?pageSize=1&pageToken=${one.nextPageToken}`));
    expect(other.status).toBe(400);
    expect(other.json()).toMatchObject({ errorDetails: { field: 'pageToken' } });
  });

  it('a pension account and a market the reference names no products for', async () => {
    const { financialProduct } = await import('../../src/sandbox/routes/data-v2.js');
    const pension = { type: 'PENSION' } as Parameters<typeof financialProduct>[1];
    const depot = { type: 'INVESTMENT', portfolioType: 'DEPOT' } as Parameters<typeof financialProduct>[1];
    expect(financialProduct('SE', pension)).toBe('SE_PENSION');
    expect(financialProduct('SE', depot)).toBe('SE_AF');
    expect(financialProduct('ES', depot)).toBe('ES_INVESTMENT');
    expect(financialProduct('ES', pension)).toBe('ES_PENSION');
  });
});

describe('/data/v2/transaction-reports/{id} as the reference writes it', () => {
  it('externalReference and merchantId only when the session gave them; createdAt in whole seconds', async () => {
    const { makeTransactionReport } = await import('../../src/sandbox/routes/data-v2.js');
    const { clientToken } = await import('../helpers/sandbox.js');
    const r = await reader(t.sandbox);
    demo(t.sandbox, r.userId, 'report');
    const ct = await clientToken(t.sandbox, ['transaction-reports:readonly']);
    const get = async (id: string) =>
      (
        await raw(t.sandbox.baseUrl, 'GET', `/data/v2/transaction-reports/${id}`, {
          headers: { authorization: `Bearer ${ct}` },
        })
      ).json();
    const bare = await get(makeTransactionReport(t.sandbox.store, { userId: r.userId, clientId: t.sandbox.clientId }));
    expect(bare.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect('externalReference' in bare).toBe(false);
    expect('merchantId' in bare).toBe(false);
    const given = await get(
      makeTransactionReport(t.sandbox.store, {
        userId: r.userId,
        clientId: t.sandbox.clientId,
        externalReference: 'order-1',
        merchantId: 'm-1',
      }),
    );
    expect(given).toMatchObject({ externalReference: 'order-1', merchantId: 'm-1' });
  });
});
