// GET /data/v2/transactions on the wire: paging with the token passed on, filters, defaults, limits,
// exact amounts, and a token that stays correct while transactions are added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx, demo, reader, walk, type Reader } from './helpers.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 4 });
});
afterAll(() => t.close());

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

describe('paging', () => {
  let r: Reader;
  let all: string[];
  beforeAll(async () => {
    r = await reader(t.sandbox);
    const a = addAccount(t.sandbox.store, r.userId);
    for (let i = 0; i < 950; i++) addTx(t.sandbox.store, a, `-${i}.25`, day(i % 200));
    all = [...t.sandbox.store.transactions.values()].filter((x) => x.userId === r.userId).map((x) => x.id);
  });

  it('walks many pages, each token passed on, every transaction exactly once, newest first', async () => {
    const w = await walk(r, 'pageSize=37');
    expect(w.pages).toBe(Math.ceil(950 / 37));
    expect(new Set(w.ids).size).toBe(950);
    expect(new Set(w.ids)).toEqual(new Set(all));
    const dates = w.items.map((x) => x.dates.booked);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('defaults to 100 a page and ends with an empty nextPageToken', async () => {
    const first = (await r.get('/data/v2/transactions')).json();
    expect(first.transactions).toHaveLength(100);
    expect(typeof first.nextPageToken).toBe('string');
    expect(first.nextPageToken).not.toBe('');
    const w = await walk(r, 'pageSize=100');
    expect(w.pages).toBe(10);
  });

  it('keeps a walk correct while transactions are added: nothing twice, nothing that existed skipped', async () => {
    const a = [...t.sandbox.store.accounts.values()].find((x) => x.userId === r.userId)!;
    const seen: string[] = [];
    let token = '';
    let added = 0;
    do {
      const res = (await r.get(`/data/v2/transactions?pageSize=50${token ? `&pageToken=${token}` : ''}`)).json();
      seen.push(...res.transactions.map((x: any) => x.id));
      token = res.nextPageToken;
      // new ones land before, inside and after the cursor's position
      addTx(t.sandbox.store, a, '1.00', day(199));
      addTx(t.sandbox.store, a, '2.00', day(100));
      addTx(t.sandbox.store, a, '3.00', day(0));
      added += 3;
    } while (token);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of all) expect(seen).toContain(id);
    expect(added).toBeGreaterThan(0);
  });

  it('answers a page size over 100 with 100 and a token; refuses 0, a malformed token and a token of other filters with 400', async () => {
    // the reference: "The maximum number of items to return. This endpoint will not return more than
    // 100 transactions per page": a larger pageSize is a page of 100, not an error
    for (const size of ['101', '1000', '1'.repeat(30)]) {
      const big = await r.get(`/data/v2/transactions?pageSize=${size}`);
      expect(big.status, size).toBe(200);
      expect(big.json().transactions).toHaveLength(100);
      expect(big.json().nextPageToken).not.toBe('');
    }
    const now = [...t.sandbox.store.transactions.values()].filter((x) => x.userId === r.userId).map((x) => x.id);
    const w = await walk(r, 'pageSize=500');
    expect(w.pages).toBe(Math.ceil(now.length / 100));
    expect(new Set(w.ids)).toEqual(new Set(now));
    for (const bad of ['0', '-1', 'ten', '1.5'])
      expect((await r.get(`/data/v2/transactions?pageSize=${bad}`)).status).toBe(400);
    expect((await r.get('/data/v2/transactions?pageToken=%25%25garbage')).status).toBe(400);
    expect(
      (await r.get(`/data/v2/transactions?pageToken=${Buffer.from('{"v":1}').toString('base64url')}`)).status,
    ).toBe(400);
    const tok = (await r.get('/data/v2/transactions?pageSize=5')).json().nextPageToken;
    const other = await r.get(`/data/v2/transactions?pageSize=5&statusIn=PENDING&pageToken=${tok}`);
    expect(other.status).toBe(400);
    expect(other.json().errorMessage).toMatch(/other filters/);
  });
});

describe('filters and defaults', () => {
  let r: Reader;
  let a1: string;
  let a2: string;
  beforeAll(async () => {
    r = await reader(t.sandbox);
    const s = t.sandbox.store;
    const x = addAccount(s, r.userId);
    const y = addAccount(s, r.userId, { name: 'Savings' });
    a1 = x.id;
    a2 = y.id;
    addTx(s, x, '-1.00', '2025-01-10');
    addTx(s, x, '-2.00', '2025-02-10', { status: 'PENDING' });
    addTx(s, y, '3.00', '2025-03-10');
    addTx(s, y, '4.00', '2025-04-10', { status: 'PENDING' });
    // in the future: not shown unless bookedDateLte reaches it
    addTx(s, y, '5.00', new Date(t.sandbox.clock.now() + 40 * 86_400_000).toISOString().slice(0, 10));
  });
  const amounts = async (q: string) => (await walk(r, q)).items.map((x) => x.amount.value.unscaledValue).sort();

  it('accountIdIn and statusIn are repeatable and combine', async () => {
    expect(await amounts(`accountIdIn=${a1}`)).toEqual(['-100', '-200']);
    expect(await amounts(`accountIdIn=${a1}&accountIdIn=${a2}`)).toEqual(['-100', '-200', '300', '400']);
    expect(await amounts('statusIn=PENDING')).toEqual(['-200', '400']);
    expect(await amounts('statusIn=PENDING&statusIn=BOOKED')).toHaveLength(4);
    expect(await amounts(`statusIn=BOOKED&accountIdIn=${a2}`)).toEqual(['300']);
    expect(await amounts('accountIdIn=nope')).toEqual([]);
  });

  it('filters are repeated, as the reference says: a comma-joined or lower-case value is a 400 naming the form', async () => {
    // the sandbox split "BOOKED,PENDING" and upper-cased "booked" itself, so a client that sent them
    // passed here and met the service's reading (one value: an unknown status, an id that matches nothing)
    for (const [q, field, message] of [
      ['statusIn=BOOKED,PENDING', 'statusIn', /repeat the parameter for each \(statusIn=A&statusIn=B\)/],
      [`accountIdIn=${a1},${a2}`, 'accountIdIn', /joins several values with commas/],
      ['statusIn=booked', 'statusIn', /unknown status "booked" .*values are upper case: BOOKED/],
      ['typesIn=CHECKING,SAVINGS', 'typesIn', /joins several values with commas/],
      ['typesIn=checking', 'typesIn', /values are upper case: CHECKING/],
      ['idIn=a,b', 'idIn', /joins several values with commas/],
    ] as const) {
      const path = field === 'typesIn' || field === 'idIn' ? '/data/v2/accounts' : '/data/v2/transactions';
      const res = await r.get(`${path}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json().errorMessage, q).toMatch(message);
      expect(res.json().errorDetails, q).toEqual({ field });
    }
  });

  it('booked dates: gte and lte inclusive, lte defaults to today, gte to the earliest', async () => {
    expect(await amounts('bookedDateGte=2025-02-10&bookedDateLte=2025-03-10')).toEqual(['-200', '300']);
    expect(await amounts('bookedDateGte=2025-03-11')).toEqual(['400']);
    expect(await amounts('')).toHaveLength(4);
    expect(await amounts('bookedDateLte=2099-12-31')).toContain('500');
  });

  it('answers 400 to impossible dates, reversed ranges and unknown statuses', async () => {
    for (const q of [
      'bookedDateGte=2025-02-30',
      'bookedDateLte=2025-13-01',
      'bookedDateGte=yesterday',
      'bookedDateGte=2025-05-01&bookedDateLte=2025-04-01',
      'statusIn=SETTLED',
    ]) {
      const res = await r.get(`/data/v2/transactions?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.json().errorMessage, q).toBeTruthy();
    }
  });
});

describe('the transaction shape', () => {
  it('has every field of spec 2.4 with exact amounts as strings', async () => {
    const r = await reader(t.sandbox);
    const accounts = demo(t.sandbox, r.userId);
    const s = t.sandbox.store;
    const acc = accounts[0]!;
    const cases: Array<[string, string, string]> = [
      ['-0.05', '-5', '2'],
      ['123456789012345678.99', '12345678901234567899', '2'],
      ['250', '250', '0'],
      ['1.005', '1005', '3'],
      ['0.00', '0', '2'],
    ];
    const ids = cases.map(([v]) => addTx(s, acc, v, '2020-01-01', { description: 'Exact' }).id);
    const w = await walk(r, 'bookedDateLte=2020-01-01&bookedDateGte=2020-01-01');
    cases.forEach(([, unscaled, scale], i) => {
      const tx = w.items.find((x) => x.id === ids[i])!;
      expect(tx.amount).toEqual({ currencyCode: 'SEK', value: { scale, unscaledValue: unscaled } });
    });
    // the newest transaction of the demo data moves with the calendar: one with a named counterparty
    // (an outgoing one with a merchant, an incoming one with a description), which most are
    const page = (await r.get('/data/v2/transactions?pageSize=20')).json().transactions as any[];
    const one = page.find((x) => x.counterparties !== undefined);
    // spec 2.4's fields, and the reference's date-times and counterparties beside them (issue 15)
    expect(Object.keys(one ?? {}).sort()).toEqual(
      [
        'bookedDateTime',
        'valueDateTime',
        'transactionDateTime',
        'counterparties',
        'accountId',
        'amount',
        'categories',
        'dates',
        'descriptions',
        'id',
        'identifiers',
        'merchantInformation',
        'providerMutability',
        'reference',
        'status',
        'types',
      ].sort(),
    );
    expect(one.categories.pfm.id).toMatch(/^[0-9a-f]{32}$/);
    expect(one.categories.pfm.name).not.toBe('');
    expect(one.dates.booked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(one.dates.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof one.descriptions.display).toBe('string');
    expect(typeof one.identifiers.providerTransactionId).toBe('string');
    expect(one.types.type).toBeTruthy();
    // the others of the page: the same fields, counterparties only where a name is known
    for (const x of page)
      expect(Object.keys(x).sort()).toEqual(
        Object.keys(one)
          .filter((k) => k !== 'counterparties' || x.counterparties !== undefined)
          .sort(),
      );
  });
});

describe('a page read again', () => {
  // The sandbox keeps the JSON text of a record read more than once (routes/read-views.ts
  // V2TransactionViews) and joins a page from those texts: what a page shows must still follow
  // every change made to the record, and be the JSON a serialiser would write.
  it('answers the exact JSON text of its page, first read and kept, whatever the descriptions hold', async () => {
    const r = await reader(t.sandbox);
    const acc = addAccount(t.sandbox.store, r.userId);
    const odd = ['quote " and \\ back', 'line\nbreak\u2028sep', 'Öl café 😀', '</script>\u0000'];
    for (const [i, d] of odd.entries())
      addTx(t.sandbox.store, acc, `-1.0${i}`, `2019-07-0${i + 1}`, { description: d });
    const q = '/data/v2/transactions?bookedDateGte=2019-07-01&bookedDateLte=2019-07-31';
    // pages of 3 and of 4: read once (views), then mixed (three kept texts, one view), then kept
    for (const [i, size] of [3, 4, 3, 4, 4].entries()) {
      const first = await r.get(`${q}&pageSize=${size}`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const page = JSON.parse(first.text);
      expect(first.text).toBe(JSON.stringify(page));
      expect(page.transactions.map((x: any) => x.descriptions.display)).toEqual([...odd].reverse().slice(0, size));
      expect(page.nextPageToken === '').toBe(size === 4);
      if (size === 4 || i === 0) continue;
      const last = await r.get(`${q}&pageSize=3&pageToken=${encodeURIComponent(page.nextPageToken)}`);
      expect(last.text).toBe(JSON.stringify({ transactions: last.json().transactions, nextPageToken: '' }));
      expect(last.json().transactions.map((x: any) => x.descriptions.display)).toEqual([odd[0]]);
    }
    const none = await r.get('/data/v2/transactions?bookedDateGte=2001-01-01&bookedDateLte=2001-01-31');
    expect(none.text).toBe('{"transactions":[],"nextPageToken":""}');
  });

  it('shows every change made to a transaction in place, and the locale asked', async () => {
    const r = await reader(t.sandbox);
    const acc = addAccount(t.sandbox.store, r.userId);
    const rec = addTx(t.sandbox.store, acc, '-10.50', '2019-06-01', {
      description: 'Coffee',
      providerTransactionId: 'p-1',
    });
    const q = '/data/v2/transactions?bookedDateLte=2019-06-01&bookedDateGte=2019-06-01';
    const one = async () => {
      const res = await r.get(q);
      expect(res.status).toBe(200);
      const list = res.json().transactions;
      expect(list).toHaveLength(1);
      return list[0];
    };
    // read three times: the view is kept from the second read on
    for (let i = 0; i < 3; i++) expect((await one()).descriptions.display).toBe('Coffee');

    const changes: Array<[string, (x: any) => unknown, unknown, () => void]> = [
      ['amount', (x) => x.amount.value, { scale: '2', unscaledValue: '-1199' }, () => void (rec.amount = '-11.99')],
      ['currency', (x) => x.amount.currencyCode, 'EUR', () => void (rec.currencyCode = 'EUR')],
      ['description', (x) => x.descriptions.display, 'Tea', () => void (rec.description = 'Tea')],
      ['original', (x) => x.descriptions.original, 'TEA SHOP', () => void (rec.originalDescription = 'TEA SHOP')],
      ['status', (x) => x.status, 'PENDING', () => void (rec.status = 'PENDING')],
      ['type', (x) => x.types.type, 'PAYMENT', () => void (rec.type = 'PAYMENT')],
      ['id', (x) => x.identifiers.providerTransactionId, 'p-2', () => void (rec.providerTransactionId = 'p-2')],
      ['merchant', (x) => x.merchantInformation.merchantName, 'Tea Co', () => void (rec.merchantName = 'Tea Co')],
      [
        'mcc',
        (x) => x.merchantInformation.merchantCategoryCode,
        '5814',
        () => void (rec.merchantCategoryCode = '5814'),
      ],
      ['reference', (x) => x.reference, 'R1', () => void (rec.reference = 'R1')],
      ['notes', (x) => x.notes, 'n', () => void (rec.notes = 'n')],
      ['value date', (x) => x.dates.value, '2019-06-03', () => void (rec.valueDate = '2019-06-03')],
      ['payload', (x) => x.partnerPayload, { k: 'v' }, () => void (rec.payload = { k: 'v' })],
      [
        'counterparties',
        (x) => x.counterparties,
        { payer: { name: 'Ann' } },
        () => void (rec.counterparties = { payer: { name: 'Ann' } }),
      ],
    ];
    for (const [what, read, want, change] of changes) {
      change();
      expect(read(await one()), what).toEqual(want);
      // and again, now that the new view may be kept
      expect(read(await one()), what).toEqual(want);
    }

    const cat = (await one()).categories.pfm;
    const other = (await r.get('/api/v1/categories')).json().find((c: any) => c.id !== cat.id && c.code.includes('.'));
    rec.categoryId = other.id;
    expect((await one()).categories.pfm.id).toBe(other.id);
    const user = t.sandbox.store.users.get(r.userId)!;
    user.locale = 'en_US';
    const en = (await one()).categories.pfm.name;
    user.locale = 'sv_SE';
    const sv = (await one()).categories.pfm.name;
    expect(sv).not.toBe('');
    expect(sv).not.toBe(en);
    user.locale = 'en_US';
    expect((await one()).categories.pfm.name).toBe(en);
  });
});

describe('the sorted index', () => {
  it('stays equal to a full sort through any mix of adds, replaces and deletes', async () => {
    const fc = (await import('fast-check')).default;
    const { TransactionIndex } = await import('../../src/sandbox/routes/transactions-v2.js');
    const { MemoryStore, IdSource, SandboxClock } = await import('../../src/sandbox/store.js');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), day: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), day: fc.integer({ min: 0, max: 5 }) }),
      // the same object deleted and set again, or set again over itself
      fc.record({ kind: fc.constant('readd' as const), pick: fc.nat(), twice: fc.boolean() }),
      fc.record({ kind: fc.constant('clear' as const) }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 300 }),
        fc.array(fc.nat({ max: 300 }), { maxLength: 5 }),
        (ops, readsAt) => {
          const store = new MemoryStore(new SandboxClock(), new IdSource(1));
          const index = new TransactionIndex(store);
          const acc = addAccount(store, 'u');
          // read first as well: from then on the index follows the table's changes (more than 64
          // between two reads drop it for a rebuild from its own lists)
          const reads = new Set([0, ...readsAt]);
          ops.forEach((o, step) => {
            if (reads.has(step)) index.entries('u');
            const ids = [...store.transactions.keys()];
            if (o.kind === 'add') addTx(store, acc, '1.00', day(o.day));
            else if (ids.length && o.kind === 'delete') store.transactions.delete(ids[o.pick % ids.length]!);
            else if (ids.length && o.kind === 'replace') {
              const old = store.transactions.get(ids[o.pick % ids.length]!)!;
              store.transactions.set(old.id, { ...old, bookedDate: day(o.day), seq: store.nextSeq() });
            } else if (ids.length && o.kind === 'readd') {
              const t = store.transactions.get(ids[o.pick % ids.length]!)!;
              if (o.twice) store.transactions.delete(t.id);
              store.transactions.set(t.id, t);
            } else if (o.kind === 'clear' && step % 7 === 0) store.transactions.clear();
          });
          const got = index.entries('u').map((e) => e.id);
          const want = [...store.transactions.values()]
            .sort((a, b) => (a.bookedDate !== b.bookedDate ? (a.bookedDate > b.bookedDate ? -1 : 1) : b.seq - a.seq))
            .map((x) => x.id);
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 200 },
    );
  });
});
