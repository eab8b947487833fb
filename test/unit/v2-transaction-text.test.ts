// The sandbox writes a data v2 transaction's JSON text directly (routes/read-views.ts
// v2TransactionText) instead of building the view's objects and serialising them: the text must be
// exactly JSON.stringify(v2Transaction(...)) for any record a client can make, whatever its strings
// hold (quotes, backslashes, controls, lone surrogate halves, emoji), its optional fields, its
// status, type, category and locale. A record whose fields are not the promised strings takes the
// object path, so it also writes the same text.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { v2Transaction, v2TransactionText } from '../../src/sandbox/routes/read-views.js';
import { CATEGORIES } from '../../src/sandbox/categories.js';
import type { TransactionRecord } from '../../src/sandbox/store.js';

const text = fc.oneof(
  fc.constantFrom(
    '',
    'Café "Öl" \\ tab\tnew\nline',
    '\u2028\u0000\u001f',
    '\ud800 lone',
    'pair \u{1F600}',
    '</script>',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const amount = fc.oneof(
  fc.constantFrom('-12.50', '0', '1e3', '-0.001', '123456789012345678901234.5'),
  fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.nat(6)).map(([neg, u, scale]) => {
    const digits = u.toString().padStart(scale + 1, '0');
    const s = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return neg ? `-${s}` : s;
  }),
);
const record: fc.Arbitrary<TransactionRecord> = fc.record(
  {
    id: text,
    userId: fc.constant('u'),
    accountId: text,
    externalId: maybe(text),
    amount,
    currencyCode: fc.constantFrom('SEK', 'EUR', 'X"Y'),
    bookedDate: fc.constantFrom('2026-01-31', '2020-02-29', 'odd"date'),
    valueDate: fc.constantFrom('', '2026-02-01'),
    description: text,
    originalDescription: fc.oneof(fc.constant(''), text),
    categoryId: fc.oneof(fc.constant(''), fc.constantFrom(...CATEGORIES.map((c) => c.id)), text),
    status: fc.constantFrom('BOOKED' as const, 'PENDING' as const),
    type: fc.constantFrom('DEFAULT', 'CREDIT_CARD', 'TRANSFER', 'PAYMENT', 'WITHDRAWAL', 'TRAINING', 'x\\y'),
    providerTransactionId: maybe(text),
    merchantName: maybe(text),
    merchantCategoryCode: maybe(text),
    counterparties: maybe(fc.constantFrom({ payee: { name: 'A "b"' } }, { payer: { name: '\u0001' } })),
    reference: maybe(text),
    payload: maybe(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 3 })),
    notes: maybe(text),
    seq: fc.nat(),
    created: fc.nat(),
    updated: fc.nat(),
  },
  {
    requiredKeys: [
      'id',
      'userId',
      'accountId',
      'amount',
      'currencyCode',
      'bookedDate',
      'valueDate',
      'description',
      'originalDescription',
      'categoryId',
      'status',
      'type',
      'seq',
      'created',
      'updated',
    ],
  },
);
const locale = fc.constantFrom('en_US', 'sv_SE', 'de_DE');

test('is JSON.stringify of the view for any record and locale', () => {
  fc.assert(
    fc.property(record, locale, (t, l) => {
      expect(v2TransactionText(t, l)).toBe(JSON.stringify(v2Transaction(t, l)));
    }),
    { numRuns: 3000 },
  );
});

test('writes the same text for records whose fields are not the strings the store promises', () => {
  const base = fc.sample(record, { numRuns: 1, seed: 7 })[0]!;
  const odd: Array<Partial<Record<keyof TransactionRecord, unknown>>> = [
    { description: undefined },
    { status: undefined },
    { bookedDate: 20260131 },
    { categoryId: null },
    { merchantName: 42 },
    { notes: { text: 'x' } },
    { reference: null },
  ];
  for (const change of odd) {
    const t = { ...base, ...change } as unknown as TransactionRecord;
    expect(v2TransactionText(t, 'en_US')).toBe(JSON.stringify(v2Transaction(t, 'en_US')));
  }
});
