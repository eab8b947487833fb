// The byte scanner of /data/v2/transactions pages (verify's read-back) against JSON.parse: whenever it
// answers, the body is JSON and its answer is what JSON.parse's reading gives; it declines whatever
// it does not take whole (then the exact reader reads the page). Real sandbox pages, hand-made
// traps, and thousands of random edits of a page.
import { describe, expect, test } from 'vitest';
import { scanTransactionsPage, type SlimPage } from '../../src/api/page-scan.js';
import { startTestSandbox, userWithToken } from '../helpers/sandbox.js';
import { generateDemoData } from '../../src/sandbox/demo-data.js';

/** What verify folds, from JSON.parse's reading of the body; undefined when JSON.parse refuses it. */
function viaJsonParse(body: string): SlimPage | 'not json' {
  let page: { transactions: Array<Record<string, any>>; nextPageToken?: string | null };
  try {
    page = JSON.parse(body.replace(/^\uFEFF/, ''));
  } catch {
    return 'not json';
  }
  return {
    transactions: page.transactions.map((t) => ({
      accountId: t.accountId,
      unscaledValue: t.amount.value.unscaledValue,
      scale: t.amount.value.scale,
      ...(typeof t.identifiers?.providerTransactionId === 'string'
        ? { providerTransactionId: t.identifiers.providerTransactionId }
        : {}),
    })),
    ...(typeof page.nextPageToken === 'string' ? { nextPageToken: page.nextPageToken } : {}),
  };
}

function agrees(body: string | Buffer): SlimPage | undefined {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const fast = scanTransactionsPage(buf);
  if (fast !== undefined) expect(fast, buf.toString()).toEqual(viaJsonParse(buf.toString('utf8')));
  return fast;
}

const tx = (over: Record<string, unknown> = {}) => ({
  id: 't1',
  accountId: 'a1',
  amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-1050' } },
  descriptions: { display: 'Coffee', original: 'COFFEE' },
  identifiers: { providerTransactionId: 'ext-1' },
  ...over,
});
const page = (ts: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ transactions: ts, nextPageToken: 'tok', ...extra });

describe('the transactions page scanner', () => {
  test('real sandbox pages read the same as JSON.parse reads them', async () => {
    const env = await startTestSandbox();
    try {
      const { userId, token } = await userWithToken(env.sandbox, ['transactions:read']);
      generateDemoData(env.sandbox.store, {
        userId,
        credentialsIds: ['c'.repeat(32)],
        providerName: 'se-test-password',
        currencyCode: 'SEK',
        seed: 'scan',
        now: env.sandbox.clock.now(),
        months: 6,
      });
      let next = '';
      let pages = 0;
      let seen = 0;
      do {
        const r = await fetch(
          `${env.sandbox.baseUrl}/data/v2/transactions?pageSize=100${next ? `&pageToken=${next}` : ''}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        const body = Buffer.from(await r.arrayBuffer());
        const p = agrees(body);
        expect(p, 'a plain page is scanned, not declined').toBeDefined();
        seen += p!.transactions.length;
        next = p!.nextPageToken ?? '';
        pages++;
      } while (next);
      expect(pages).toBeGreaterThan(1);
      expect(seen).toBeGreaterThan(100);
    } finally {
      await env.close();
    }
  });

  test('what a string holds is never read as structure; escapes decode as JSON.parse decodes them', () => {
    const trap = tx({
      descriptions: { display: '"accountId":"evil","amount":{"value":{"unscaledValue":"1"}}', original: '\\"}' },
      accountId: 'a\u00e9\\"x\u2028',
      identifiers: { providerTransactionId: 'id \\u0041 \ud83d\ude00' },
    });
    const p = agrees(page([trap, tx({ accountId: 'b2' })]));
    expect(p?.transactions.map((t) => t.accountId)).toEqual(['a\u00e9\\"x\u2028', 'b2']);
    expect(agrees(page([tx()]).replace('"accountId":"a1"', '"accountId":"a\\u0031"'))?.transactions[0]!.accountId).toBe(
      'a1',
    );
  });

  test('amounts as numbers are kept when exact, and declined beyond 2^53 (the exact reader keeps every digit)', () => {
    const small = agrees(page([tx({ amount: { value: { scale: 2, unscaledValue: -1050 } } })]));
    expect(small?.transactions[0]).toMatchObject({ unscaledValue: -1050, scale: 2 });
    expect(agrees(page([tx()]).replace('"unscaledValue":"-1050"', '"unscaledValue":12345678901234567891'))).toBe(
      undefined,
    );
    // an exponent that still makes a whole number is that number, as JSON.parse reads it
    expect(
      agrees(page([tx()]).replace('"unscaledValue":"-1050"', '"unscaledValue":1.5e3'))?.transactions[0]!.unscaledValue,
    ).toBe(1500);
  });

  test.each([
    [
      'a duplicate wanted field (JSON.parse keeps the last)',
      page([tx()]).replace('"accountId":"a1"', '"accountId":"a0","accountId":"a1"'),
    ],
    ['an escaped member name that spells a wanted one', page([tx()]).replace('"accountId"', '"account\\u0049d"')],
    [
      'an escaped member name beside the plain one (JSON.parse keeps the last)',
      page([tx()]).replace('"accountId":"a1"', '"accountId":"a0","account\\u0049d":"a1"'),
    ],
    ['a transaction without an amount', page([{ id: 'x', accountId: 'a1' }])],
    ['an amount without its value', page([tx({ amount: { currencyCode: 'SEK' } })])],
    ['an accountId that is not a string', page([tx({ accountId: 7 })])],
    ['transactions that are not a list', JSON.stringify({ transactions: {}, nextPageToken: '' })],
    ['no transactions member', JSON.stringify({ nextPageToken: '' })],
    ['a nextPageToken that is a number', page([tx()], { nextPageToken: 5 })],
    ['a raw control character in a string', page([tx()]).replace('Coffee', 'Cof\u0001fee')],
    ['a raw newline in a string', page([tx()]).replace('Coffee', 'Cof\nfee')],
    ['a bad escape', page([tx()]).replace('Coffee', 'Cof\\xfee')],
    ['a short \\u escape', page([tx()]).replace('Coffee', 'Cof\\u12')],
    ['text after the value', `${page([tx()])} x`],
    ['a second value', `${page([tx()])}{}`],
    ['a trailing comma', page([tx()]).replace(/}$/, ',}')],
    ['a missing comma', page([tx()]).replace('],"nextPageToken"', '] "nextPageToken"')],
    ['a leading zero', page([tx({ n: 1 })]).replace('"n":1', '"n":01')],
    ['a bare minus', page([tx({ n: 1 })]).replace('"n":1', '"n":-')],
    ['a dangling decimal point', page([tx({ n: 1 })]).replace('"n":1', '"n":1.')],
    ['an unknown literal', page([tx({ n: true })]).replace('"n":true', '"n":tru')],
    ['a cut body', page([tx()]).slice(0, -3)],
    ['an empty body', ''],
    ['nesting deeper than a page has', page([tx({ deep: JSON.parse('['.repeat(80) + ']'.repeat(80)) })])],
  ])('declines %s', (_what, body) => {
    expect(scanTransactionsPage(Buffer.from(body))).toBeUndefined();
  });

  test('whitespace anywhere JSON allows it, a byte order mark, null and other members are taken', () => {
    const body = `\uFEFF \n{ "other" : [ 1 , -2.5e-3 , true , false , null , { } , [ ] ] ,\t"transactions" : [ ${JSON.stringify(
      tx(),
      null,
      2,
    )} ] , "nextPageToken" : null }\r\n`;
    const p = agrees(body);
    expect(p).toEqual({
      transactions: [{ accountId: 'a1', unscaledValue: '-1050', scale: '2', providerTransactionId: 'ext-1' }],
    });
  });

  test('20,000 random edits of three pages: whenever the scanner answers, JSON.parse reads the same', () => {
    const bases = [
      page([
        tx(),
        tx({ accountId: 'a2', amount: { value: { unscaledValue: 99, scale: 0 } }, extra: [1, 'x', { y: null }] }),
      ]),
      // indented, an identifiers that is not an object, an escaped string, no next page
      JSON.stringify(
        { transactions: [tx({ identifiers: [] }), tx({ notes: 'a\\"b\nÖ' })], nextPageToken: null },
        null,
        1,
      ),
      JSON.stringify({ nextPageToken: 'x', transactions: [], z: { a: [[[]]], b: {}, c: [true, false, 1.5e3] } }),
    ];
    const pieces = [
      ...['"', '\\', ',', ':', '{', '}', '[', ']', '1', '0', '-', '+', '.', 'e', 'E', 'n', 't', 'f', 'r', 'l'],
      ...[' ', '\t', '\n', '\u0001', '\u001f', 'u', 'a', '/', 'b', 'Ö', 'null', '"x"', '{}', '[]', '\\u0041', '\\u00'],
      '9007199254740993',
    ];
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let answered = 0;
    let declined = 0;
    for (let k = 0; k < 20_000; k++) {
      let s = bases[k % bases.length]!;
      for (let edits = 1 + rnd(3); edits > 0; edits--) {
        const at = rnd(s.length);
        const what = rnd(3);
        const piece = pieces[rnd(pieces.length)]!;
        s = what === 0 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + piece + s.slice(at + (what === 1 ? 1 : 0));
      }
      const fast = scanTransactionsPage(Buffer.from(s));
      const slow = viaJsonParseSafe(s);
      if (fast === undefined) declined++;
      else {
        answered++;
        expect(slow, s).not.toBe('not json');
        expect(fast, s).toEqual(slow);
      }
    }
    // the edits are not all fatal: some still give a page the scanner reads
    expect(answered).toBeGreaterThan(2000);
    expect(declined).toBeGreaterThan(5000);
  });
});

/** viaJsonParse for an edited body whose transactions may have lost their shape. */
function viaJsonParseSafe(body: string): SlimPage | 'not json' | 'other shape' {
  try {
    return viaJsonParse(body);
  } catch {
    return 'other shape';
  }
}
