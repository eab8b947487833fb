// The NDJSON fast path: a compact page split into its transactions' own text must be exactly what
// parsing and re-serialising would print, and anything else falls back to parsing.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { splitTransactionPage } from '../../src/api/transactions.js';

const tx = fc.record({
  id: fc.string(),
  amount: fc.record({
    currencyCode: fc.constantFrom('SEK', 'EUR'),
    value: fc.record({ scale: fc.constantFrom('0', '2', '3'), unscaledValue: fc.bigInt().map(String) }),
  }),
  descriptions: fc.record({ display: fc.string(), original: fc.string({ unit: 'grapheme' }) }),
  tricky: fc.constantFrom(
    'a,b',
    '{"x":[1,2]}',
    'quote " and \\ backslash',
    ']',
    '},{',
    'tab\there',
    '\u001b[31m',
    '\u009b',
  ),
  n: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null), fc.boolean()),
  nested: fc.array(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())), { maxLength: 3 }),
});

it('gives exactly JSON.stringify of each transaction, and the token', () => {
  fc.assert(
    fc.property(
      fc.array(tx, { maxLength: 20 }),
      fc.oneof(fc.constant(''), fc.base64String()),
      fc.boolean(),
      (items, token, tokenFirst) => {
        const text = tokenFirst
          ? JSON.stringify({ nextPageToken: token, transactions: items })
          : JSON.stringify({ transactions: items, nextPageToken: token });
        const page = splitTransactionPage(text);
        expect(page).toBeDefined();
        expect(page!.lines).toEqual(items.map((i) => `${JSON.stringify(i)}\n`));
        expect(page!.nextPageToken).toBe(token);
      },
    ),
    { numRuns: 300 },
  );
});

it('declines what it cannot split safely, so the caller parses', () => {
  const items = [{ id: 'a' }, { id: 'b' }];
  expect(splitTransactionPage(JSON.stringify({ transactions: items, nextPageToken: '' }, null, 2))).toBeUndefined();
  expect(splitTransactionPage('{"transactions":[{"id":"a"}')).toBeUndefined();
  expect(splitTransactionPage('{"transactions":[{"id":"a"}]}}')).toBeUndefined();
  expect(splitTransactionPage('{"transactions":[1,2]}')).toBeUndefined();
  expect(splitTransactionPage('{"transactions":[{"id":<script>}]}')).toBeUndefined();
  expect(splitTransactionPage('{"items":[]}')).toBeUndefined();
  expect(splitTransactionPage('[]')).toBeUndefined();
  expect(splitTransactionPage('')).toBeUndefined();
  expect(splitTransactionPage('{"transactions":[],"nextPageToken":""}')).toEqual({ lines: [], nextPageToken: '' });
  expect(
    splitTransactionPage('{"transactions":[{"id":"a","x":{"transactions":[{"id":"inner"}]}}],"nextPageToken":"t"}'),
  ).toEqual({
    lines: ['{"id":"a","x":{"transactions":[{"id":"inner"}]}}\n'],
    nextPageToken: 't',
  });
});
