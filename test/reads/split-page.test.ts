// The NDJSON fast path: a compact page split into its transactions' own text must be exactly what
// parsing and re-serialising would print, and anything else falls back to parsing.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { ndjsonLines, peekNextPageToken, splitTransactionPageBytes } from '../../src/api/transactions.js';

/** The split of a page's text, its lines as strings. */
function splitTransactionPage(text: string): { lines: string[]; nextPageToken: string } | undefined {
  const page = splitTransactionPageBytes(Buffer.from(text, 'utf8'));
  return page && { lines: ndjsonLines(page), nextPageToken: page.nextPageToken };
}

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

it('splits the bytes where they lie: NDJSON of the items, a body it declines left untouched', () => {
  fc.assert(
    fc.property(fc.array(tx, { maxLength: 20 }), fc.base64String(), (items, token) => {
      const body = Buffer.from(JSON.stringify({ transactions: items, nextPageToken: token }));
      const page = splitTransactionPageBytes(body, token);
      expect(page).toBeDefined();
      expect(page!.ndjson.toString('utf8')).toBe(items.map((i) => `${JSON.stringify(i)}\n`).join(''));
      expect(page!.ends.length).toBe(items.length);
      expect(peekNextPageToken(Buffer.from(JSON.stringify({ transactions: items, nextPageToken: token })))).toBe(token);
    }),
    { numRuns: 200 },
  );
  for (const text of [
    '{"transactions":[{"id":"a"},],"nextPageToken":""}', // a trailing comma is not JSON
    '{"transactions":[{"id":"a"},{"id":"b"}],"nextPageToken":"t"}junk',
    '{"transactions":[{"id":"a"}],"transactions":[{"id":"b"}]}', // which one JSON.parse keeps is its business
  ]) {
    const body = Buffer.from(text);
    expect(splitTransactionPageBytes(body)).toBeUndefined();
    expect(body.toString()).toBe(text);
  }
  // not UTF-8: the text path (with its replacement characters) takes it
  expect(
    splitTransactionPageBytes(Buffer.from([...Buffer.from('{"transactions":[{"id":"'), 0xff, ...Buffer.from('"}]}')])),
  ).toBeUndefined();
});

it('peeks the token at the end of a page only when it is unambiguous, and the split must agree', () => {
  expect(peekNextPageToken(Buffer.from('{"transactions":[{"id":"a"}],"nextPageToken":"abc"}'))).toBe('abc');
  expect(peekNextPageToken(Buffer.from('{"transactions":[{"id":"a"}],"nextPageToken":""}'))).toBe('');
  expect(peekNextPageToken(Buffer.from('{"nextPageToken":"abc","transactions":[{"id":"a"}]}'))).toBeUndefined();
  expect(peekNextPageToken(Buffer.from('{"transactions":[{"id":"a"}],"nextPageToken":"a\\"b"}'))).toBeUndefined();
  expect(peekNextPageToken(Buffer.from('{"transactions":[],"x":{"nextPageToken":"abc"}}'))).toBeUndefined();
  const text = '{"transactions":[{"id":"a"},{"id":"b"}],"nextPageToken":"real"}';
  const body = Buffer.from(text);
  expect(splitTransactionPageBytes(body, 'other')).toBeUndefined();
  expect(body.toString()).toBe(text);
});
