// `transactions list --all -o ndjson` to a pipe writes each page's transactions as the service sent
// them, but never a body JSON.parse would refuse: bad literals, numbers, missing colons or values,
// keys that are not strings, trailing commas, a second document are exit 7 with nothing on stdout,
// as with -o json. The splitter itself, against JSON.parse on thousands of random edits of a page:
// whenever it splits, the body is JSON and each line is one of its transactions.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { splitTransactionPageBytes } from '../../src/api/transactions.js';
import { spawnCli } from '../helpers/cli.js';
import { scriptedServer, type Step, readyTokenEnv } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
let body = '';

beforeAll(async () => {
  const step: Step = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  };
  server = await scriptedServer(() => step);
});
afterAll(() => server.close());

const list = (format: string) =>
  spawnCli(['transactions', 'list', '--all', '-o', format], {
    env: readyTokenEnv(server.url),
    timeoutMs: 15_000,
  });

const MALFORMED: Array<[string, string]> = [
  ['a bad literal and a bad number', '{"transactions":[{"id":"a","x":tru},{"id":"b","y":--1..2e}],"nextPageToken":""}'],
  ['missing values', '{"transactions":[{"id":"a","x":},{"id":"b",:1}],"nextPageToken":""}'],
  ['a missing colon', '{"transactions":[{"id""a"}],"nextPageToken":""}'],
  ['a key that is not a string', '{"transactions":[{1:2}],"nextPageToken":""}'],
  ['a trailing comma in the page', '{"transactions":[{"id":"a"}],"nextPageToken":"",}'],
  ['a trailing comma in a transaction', '{"transactions":[{"id":"a",}],"nextPageToken":""}'],
  ['a trailing comma in a nested list', '{"transactions":[{"id":"a","l":[1,2,]}],"nextPageToken":""}'],
  ['a second document', '{"transactions":[{"id":"a"}],"nextPageToken":""}{"transactions":[{"id":"evil"}]}'],
  ['a leading zero', '{"transactions":[{"id":"a","n":01}],"nextPageToken":""}'],
  ['a dangling decimal point', '{"transactions":[{"id":"a","n":1.}],"nextPageToken":""}'],
  ['a plus sign', '{"transactions":[{"id":"a","n":+1}],"nextPageToken":""}'],
  ['a bad escape', '{"transactions":[{"id":"a\\x41"}],"nextPageToken":""}'],
  ['a short \\u escape', '{"transactions":[{"id":"a\\u12"}],"nextPageToken":""}'],
  ['a raw tab in a string', '{"transactions":[{"id":"a\tb"}],"nextPageToken":""}'],
  ['a missing comma', '{"transactions":[{"id":"a" "n":1}],"nextPageToken":""}'],
  ['a bare word', '{"transactions":[{"id":"a","n":NaN}],"nextPageToken":""}'],
  ['an unclosed nested object', '{"transactions":[{"id":"a","o":{"p":1]}],"nextPageToken":""}'],
  ['a single-quoted string', '{"transactions":[{"id":\'a\'}],"nextPageToken":""}'],
  ['a cut body', '{"transactions":[{"id":"a"},{"id":"b"'],
];

describe('transactions list --all -o ndjson to a pipe', () => {
  for (const [what, text] of MALFORMED) {
    test(`${what}: exit 7, nothing on stdout`, async () => {
      expect(() => JSON.parse(text), 'the case must be invalid JSON').toThrow();
      body = text;
      const r = await list('ndjson');
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/GET \/data\/v2\/transactions answered 200 \(application\/json\) with malformed JSON/);
    });
  }

  test('the same bodies with -o json are exit 7 as before', async () => {
    for (const [, text] of MALFORMED.slice(0, 5)) {
      body = text;
      const r = await list('json');
      expect(r.code, text).toBe(7);
    }
  });

  test('valid pages still come out as the service sent them, spaces inside a transaction too', async () => {
    body =
      '{"transactions":[{"id":"a","n":-1.5e+3,"t":true,"f":false,"z":null,"l":[],"o":{}},{"id": "b", "s": "x,]}{\\"\\u00e9\\/"}],' +
      '"other":{"k":[1,{"a\\"b":2}]},"nextPageToken":""}\n';
    const r = await list('ndjson');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '{"id":"a","n":-1.5e+3,"t":true,"f":false,"z":null,"l":[],"o":{}}\n{"id": "b", "s": "x,]}{\\"\\u00e9\\/"}\n',
    );
  });
});

describe('the NDJSON splitter against JSON.parse', () => {
  const page = JSON.stringify({
    transactions: [
      {
        id: 't1',
        accountId: 'a1',
        amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-1050' } },
        descriptions: { display: 'Coffee, "large"', original: 'COFFEE \\ ]},{' },
        n: [1, -2.5e-3, 0, true, false, null, {}, []],
      },
      { id: 't2', k: { 'odd "key"': 1, nested: [[{ a: 1 }]] } },
    ],
    nextPageToken: 'tok',
  });

  test('20,000 random edits: whenever it splits, JSON.parse reads the body and each line is one of its transactions', () => {
    const pieces = [
      ...['"', '\\', ',', ':', '{', '}', '[', ']', '1', '0', '-', '+', '.', 'e', 'E', 'n', 't', 'f', 'r', 'l', 'u'],
      ...[' ', '\t', '\n', '\u0001', 'a', '/', 'Ö', 'null', '"x"', '{}', '[]', '\\u0041', '\\u00', '1:2', ',]', ',}'],
    ];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let split = 0;
    let declined = 0;
    for (let k = 0; k < 20_000; k++) {
      let s = page;
      for (let edits = 1 + rnd(3); edits > 0; edits--) {
        const at = rnd(s.length);
        const what = rnd(3);
        const piece = pieces[rnd(pieces.length)]!;
        s = what === 0 ? s.slice(0, at) + s.slice(at + 1) : s.slice(0, at) + piece + s.slice(at + (what === 1 ? 1 : 0));
      }
      const out = splitTransactionPageBytes(Buffer.from(s));
      if (!out) {
        declined++;
        continue;
      }
      split++;
      let parsed: { transactions: unknown[]; nextPageToken: unknown };
      try {
        parsed = JSON.parse(s);
      } catch {
        throw new Error(`split a body JSON.parse refuses: ${s}`);
      }
      const text = out.ndjson.toString('utf8');
      const lines = text === '' ? [] : text.slice(0, -1).split('\n');
      expect(
        lines.map((l) => JSON.parse(l)),
        s,
      ).toEqual(parsed.transactions);
      expect(out.nextPageToken, s).toBe(parsed.nextPageToken);
    }
    // the edits are not all fatal: some bodies are still pages it splits
    expect(split).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(1000);
  });

  test('declines a nextPageToken that is missing, null or not a string (the exact reader says what is wrong)', () => {
    for (const text of [
      '{"transactions":[{"id":"a"}]}',
      '{"transactions":[{"id":"a"}],"nextPageToken":null}',
      '{"transactions":[{"id":"a"}],"nextPageToken":5}',
      '{"transactions":[{"id":"a"}],"nextPageToken":"a","nextPageToken":"b"}',
    ]) {
      const b = Buffer.from(text);
      expect(splitTransactionPageBytes(b), text).toBeUndefined();
      expect(b.toString(), 'a declined body is left as it was').toBe(text);
    }
  });
});
