// The one-pass reader of ingest bodies against the general path it stands in for: whenever it
// answers, its container is exactly validateContainer(parseExactJson(text), 'create'); it never
// answers for a body the general path refuses; and it does answer for the bodies clients send.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { JsonSyntaxError, WireError, parseExactJson, validateContainer } from '../../src/contract/connector-wire.js';
import { parseIngestBody } from '../../src/sandbox/connector/ingest-body.js';

/** What the route did before the reader: decode, parse exactly, validate; 'refused' for a 4xx. */
function general(buf: Buffer): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return 'refused';
  }
  if (text.trim() === '') return 'refused';
  try {
    return validateContainer(parseExactJson(text), 'create');
  } catch (err) {
    if (err instanceof JsonSyntaxError || err instanceof WireError) return 'refused';
    throw err;
  }
}

function same(body: string | Buffer): boolean {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const fast = parseIngestBody(buf);
  const slow = general(buf);
  if (fast === undefined) return true;
  expect(slow).not.toBe('refused');
  expect(fast).toStrictEqual(slow);
  return true;
}

// ---- bodies as text, so that number literals, escapes and whitespace vary --------------------

const ws = fc.constantFrom('', '', ' ', '\n  ', '\t', '\r\n');
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const decimal = fc
  .tuple(fc.boolean(), fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,12}$/)), fc.option(digits(1, 4)))
  .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === null ? '' : `.${f}`}`);
const numberText = fc.oneof(
  { weight: 6, arbitrary: decimal },
  {
    weight: 2,
    arbitrary: fc
      .tuple(decimal, fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 45 }))
      .map(([d, e, s, x]) => `${d}${e}${s}${x}`),
  },
  { weight: 1, arbitrary: digits(41, 45) },
  { weight: 1, arbitrary: fc.constantFrom('01', '1.', '-', '.5', '1e', '--1', '1.5.5', '0x10', 'NaN', '1e999999999') },
);
const dateText = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -2e12, max: 4e12 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '8640000000000000',
      '8640000000000001',
      '-8640000000000000',
      '9007199254740993',
      '12345678901234567',
      '-0',
      '1.5',
      '1e3',
      '1600000000000.0',
    ),
  },
);
const plainString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    '  ',
    '\u00a0',
    'x'.repeat(257),
    'y'.repeat(4097),
    'tx-1',
    'a-much-longer-identifier-of-40-characters',
  ),
);
/** JSON string literals, sometimes with needless escapes and raw non-ASCII. */
const stringText = fc.tuple(plainString, fc.integer({ min: 0, max: 3 })).map(([s, mode]) => {
  const lit = JSON.stringify(s);
  if (mode === 1) return lit.replace(/[a-z]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (mode === 2) return lit.replace(/\//g, '\\/');
  return lit;
});
const jsonText = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
const anyText = fc.oneof(
  stringText,
  numberText,
  jsonText,
  fc.constantFrom('null', 'true', 'false', '[]', '{}', '"\\u0000"', '[1,]', '{"a":1,}', 'nul', 'tru'),
);

function objectText(entries: Array<[string, string]>, pad: string): string {
  return `{${pad}${entries.map(([k, v]) => `${JSON.stringify(k)}${pad}:${pad}${v}`).join(`,${pad}`)}${pad}}`;
}

/** Members of an object: the known keys (each sometimes dropped, doubled or replaced), plus extras. */
function members(known: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Array<[string, string]>> {
  const keys = Object.keys(known);
  return fc
    .tuple(
      ...keys.map((k) =>
        fc.tuple(
          fc.constant(k),
          fc.oneof({ weight: 12, arbitrary: known[k]! }, { weight: 1, arbitrary: anyText }),
          fc.integer({ min: 0, max: 40 }),
        ),
      ),
      fc.array(fc.tuple(fc.constantFrom('extra', 'currency', '0', '__proto__', 'améliorée', 'platformId'), anyText), {
        maxLength: 2,
      }),
    )
    .map((parts) => {
      const extras = parts.pop() as Array<[string, string]>;
      const out: Array<[string, string]> = [];
      for (const [k, v, roll] of parts as Array<[string, string, number]>) {
        if (roll === 0) continue; // missing
        out.push([k, v]);
        if (roll === 1) out.push([k, v]); // repeated
        if (roll === 2) out[out.length - 1] = [k, 'null'];
      }
      return [...out, ...extras];
    });
}

const typeText = fc.oneof(
  fc.constantFrom('"DEFAULT"', '"CREDIT_CARD"', '"TRANSFER"', '"PAYMENT"', '"WITHDRAWAL"'),
  fc.constantFrom('"default"', '"DEF\\u0041ULT"', '"OTHER"', '7'),
);
const stringsText = fc.oneof(
  fc.array(stringText, { maxLength: 3 }).map((a) => `[${a.join(',')}]`),
  anyText,
);
const payloadText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.option(stringsText),
        fc.option(stringsText),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      )
      .map(([p, t, rest]) => {
        const entries: Array<[string, string]> = Object.entries(rest).map(([k, v]) => [k, JSON.stringify(v)]);
        if (p !== null) entries.push(['PENDING_IDS', p]);
        if (t !== null) entries.push(['TAGS', t]);
        return objectText(entries, '');
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{}',
      '[]',
      '"x"',
      '{"n":1.50,"e":1e2,"deep":{"a":[1,{"b":-0.0}]}}',
      '{"PENDING_IDS":["p-1"]}',
      '{"__proto__":{"PENDING_IDS":["x"]}}',
      '{"a":{"__proto__":[]}}',
      '{"x":"\\u0000"}',
    ),
  },
);
const transactionText = fc
  .tuple(
    members({
      externalId: stringText,
      amount: numberText,
      date: dateText,
      description: stringText,
      type: typeText,
      pending: fc.constantFrom('true', 'false'),
      platformId: stringText,
      payload: payloadText,
    }),
    ws,
  )
  .map(([m, pad]) => objectText(m, pad));
const accountText = fc
  .tuple(
    members({
      externalId: stringText,
      balance: numberText,
      reservedAmount: numberText,
      payload: payloadText,
      transactions: fc.array(transactionText, { maxLength: 4 }).map((a) => `[${a.join(',')}]`),
    }),
    ws,
  )
  .map(([m, pad]) => objectText(m, pad));
const containerText = fc
  .tuple(
    members({
      type: fc.constantFrom('"REAL_TIME"', '"HISTORICAL"', '"BATCH"', '"LATER"'),
      transactionAccounts: fc.array(accountText, { maxLength: 3 }).map((a) => `[${a.join(', ')}]`),
    }),
    ws,
    ws,
  )
  .map(([m, pad, outer]) => `${outer}${objectText(m, pad)}${outer}`);

// ---- the bodies clients send ---------------------------------------------------------------

const tx = (i: number) =>
  `{"externalId":"tx-${i}","amount":${i % 2 ? '-' : ''}${(i % 997) + 1}.${String(i % 100).padStart(2, '0')},"date":${1_600_000_000_000 + i * 1000},"description":"Merchant ${i % 500}","type":"DEFAULT"}`;
const pushBody = (n: number) =>
  `{"type":"HISTORICAL","transactionAccounts":[${[0, 1, 2].map((a) => `{"externalId":"acc-${a}","balance":${1000 + a}.25,"transactions":[${Array.from({ length: n }, (_, i) => tx(i * 3 + a)).join(',')}]}`).join(',')}]}`;

describe('parseIngestBody', () => {
  test("answers for the bodies `connector push` sends, with the general path's container", () => {
    for (const body of [
      pushBody(1),
      pushBody(833),
      JSON.stringify({
        type: 'REAL_TIME',
        transactionAccounts: [
          {
            externalId: 'a',
            balance: 1.5,
            reservedAmount: -2,
            payload: { x: [1, { y: 2.5 }] },
            transactions: [
              {
                externalId: 'p',
                amount: -1.5e2,
                date: 0,
                description: ' d ',
                type: 'PAYMENT',
                pending: false,
                platformId: '',
                payload: { PENDING_IDS: ['o'], TAGS: ['ab'], PENDING_TRANSACTION_EXPIRATION_DATE: 0.1 },
              },
            ],
          },
        ],
      }),
    ]) {
      const fast = parseIngestBody(Buffer.from(body));
      expect(fast).toBeDefined();
      expect(fast).toStrictEqual(general(Buffer.from(body)));
    }
    // the same with white space everywhere JSON allows it
    const pretty = JSON.stringify(JSON.parse(pushBody(5)), null, 2).replace(/\n/g, '\r\n\t');
    expect(parseIngestBody(Buffer.from(pretty))).toBeDefined();
    const big = parseIngestBody(Buffer.from(pushBody(833)))!;
    expect(big.count).toBe(2499);
    expect(big.transactionAccounts[1]!.transactions[3]).toStrictEqual({
      externalId: 'tx-10',
      amount: '11.10',
      date: 1_600_000_010_000,
      description: 'Merchant 10',
      type: 'DEFAULT',
      pending: undefined,
      platformId: undefined,
      payload: undefined,
    });
  });

  test('amounts stay the literal text: trailing zeros, long and exponent forms', () => {
    const c = parseIngestBody(
      Buffer.from(
        '{"type":"BATCH","transactionAccounts":[{"externalId":"a","balance":12345678901234567890.10,"transactions":[{"externalId":"x","amount":-2.5E-3,"date":-0,"description":"d","type":"DEFAULT"},{"externalId":"y","amount":1.000,"date":8640000000000000,"description":"d","type":"DEFAULT"}]}]}',
      ),
    )!;
    expect(c.transactionAccounts[0]!.balance).toBe('12345678901234567890.10');
    expect(c.transactionAccounts[0]!.transactions.map((t) => t.amount)).toEqual(['-0.0025', '1.000']);
    expect(Object.is(c.transactionAccounts[0]!.transactions[0]!.date, -0)).toBe(true);
  });

  test('leaves every refused body to the general path', () => {
    const refused = [
      '',
      '   ',
      '{"type":',
      '[1,2]',
      '{}',
      '{"type":"REAL_TIME"}',
      '{"type":"REAL_TIME","transactionAccounts":[]} x',
      '{"type":"REAL_TIME\\u0000","transactionAccounts":[]}',
      '{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a","balance":01,"transactions":[]}]}',
      '{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a","balance":1e99999,"transactions":[]}]}',
      `{"type":"REAL_TIME","transactionAccounts":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      `{"type":"REAL_TIME","x":${'['.repeat(100_000)}${']'.repeat(100_000)},"transactionAccounts":[]}`,
      `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a","balance":1,"transactions":[${Array.from({ length: 2501 }, (_, i) => tx(i)).join(',')}]}]}`,
    ];
    for (const body of refused) expect(parseIngestBody(Buffer.from(body))).toBeUndefined();
    expect(parseIngestBody(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toBeUndefined();
    // a BOM, that the general path's decoder drops, and a repeated key, where the last one wins there
    expect(parseIngestBody(Buffer.from(`\ufeff${pushBody(1)}`))).toBeUndefined();
    expect(
      parseIngestBody(Buffer.from('{"type":"LATER","type":"REAL_TIME","transactionAccounts":[]}')),
    ).toBeUndefined();
  });

  test('fuzz: whenever it answers, it answers as the general path does', () => {
    let answered = 0;
    let valid = 0;
    fc.assert(
      fc.property(containerText, (body) => {
        if (general(Buffer.from(body)) !== 'refused') valid++;
        if (parseIngestBody(Buffer.from(body)) !== undefined) answered++;
        return same(body);
      }),
      { numRuns: 3000, seed: 7 },
    );
    // the generator makes enough valid bodies, and the reader takes most of them
    expect(valid).toBeGreaterThan(150);
    expect(answered).toBeGreaterThan(valid * 0.5);
  });

  test('fuzz: one field of a valid body replaced by an edge value', () => {
    const edges = fc.oneof(
      stringText,
      numberText,
      dateText,
      typeText,
      payloadText,
      anyText,
      fc
        .constantFrom(256, 257, 4096, 4097)
        .chain((n) =>
          fc.constantFrom(
            `"${'x'.repeat(n)}"`,
            `"${'é'.repeat(n)}"`,
            `" ${'x'.repeat(n - 1)}"`,
            `"${'\\u0041'.repeat(n)}"`,
          ),
        ),
      fc.constantFrom(
        `1${'0'.repeat(39)}`,
        `1${'0'.repeat(40)}`,
        `-1.${'0'.repeat(39)}`,
        `1.${'0'.repeat(40)}`,
        '1e39',
        '1e40',
        '1e41',
        '1e-40',
        '1e-41',
        '12.5e-1',
        '0e5',
        '-0.0',
      ),
    );
    const fields = [
      'type',
      'accExternalId',
      'balance',
      'reservedAmount',
      'accPayload',
      'externalId',
      'amount',
      'date',
      'description',
      'txType',
      'pending',
      'platformId',
      'payload',
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), edges, (field, v) => {
        const f = (name: string, dflt: string) => (field === name ? v : dflt);
        const t = `{"externalId":${f('externalId', '"t-1"')},"amount":${f('amount', '-1.50')},"date":${f('date', '1700000000000')},"description":${f('description', '"d"')},"type":${f('txType', '"DEFAULT"')},"pending":${f('pending', 'false')},"platformId":${f('platformId', '"p"')},"payload":${f('payload', '{"TAGS":["a"]}')}}`;
        const body = `{"type":${f('type', '"REAL_TIME"')},"transactionAccounts":[{"externalId":${f('accExternalId', '"acc-0"')},"balance":${f('balance', '10')},"reservedAmount":${f('reservedAmount', '1')},"payload":${f('accPayload', '{}')},"transactions":[${t}]}]}`;
        return same(body);
      }),
      { numRuns: 3000, seed: 5 },
    );
  });

  test('fuzz: damaged bodies (bytes cut, doubled or replaced)', () => {
    fc.assert(
      fc.property(
        containerText,
        fc.nat(),
        fc.nat({ max: 5 }),
        fc.integer({ min: 0, max: 255 }),
        (body, at, mode, byte) => {
          const b = Buffer.from(body);
          if (b.length === 0) return true;
          const p = at % b.length;
          const damaged =
            mode === 0
              ? Buffer.concat([b.subarray(0, p), b.subarray(p + 1)])
              : mode === 1
                ? Buffer.concat([b.subarray(0, p), b.subarray(p, p + 1), b.subarray(p)])
                : Buffer.concat([b.subarray(0, p), Buffer.from([byte]), b.subarray(p + 1)]);
          return same(damaged);
        },
      ),
      { numRuns: 3000, seed: 11 },
    );
  });
});
