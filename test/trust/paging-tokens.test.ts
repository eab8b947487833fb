// A page's nextPageToken must be a string ("" on the last page). Null or another type is not what a
// paged endpoint returns: exit 7, never "the last page" with exit 0. A page without the key is exit 7
// when pages are followed (--all, --limit): the spec (4.7, 2.4) gives every page {transactions,
// nextPageToken}, and taking a missing one as the end would cut the export short without a word.
// Read as a single page, a missing key still just means no next page. And a walk of the sandbox's
// real pages is unchanged.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SeenTokens } from '../../src/api/paging.js';
import { spawnCli } from '../helpers/cli.js';
import { scriptedServer, type Step, readyTokenEnv } from '../helpers/scripted-server.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { addAccount, addTx, reader } from '../reads/helpers.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
/** The body of each page by its pageToken ('' for the first). */
let pages: Record<string, string> = {};

beforeAll(async () => {
  const step: Step = (req, res) => {
    const token = new URL(req.url!, 'http://x').searchParams.get('pageToken') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(pages[token] ?? '{"oops":true}');
  };
  server = await scriptedServer(() => step);
});
afterAll(() => server.close());

const run = (args: string[]) => {
  server.seen.length = 0;
  return spawnCli(args, {
    env: readyTokenEnv(server.url),
    timeoutMs: 15_000,
  });
};

const t1 = '{"id":"t1","amount":{"currencyCode":"SEK","value":{"scale":"2","unscaledValue":"-1050"}}}';

const BAD_TOKENS: Array<[string, string, RegExp]> = [
  ['null', 'null', /a nextPageToken that is null, not a string/],
  ['a number', '5', /a nextPageToken that is the number 5, not a string/],
  ['a decimal kept exactly', '1.10', /a nextPageToken that is the number 1\.10, not a string/],
  ['true', 'true', /a nextPageToken that is true, not a string/],
  ['an object', '{"t":"x"}', /a nextPageToken that is an object, not a string/],
  ['a list', '["x"]', /a nextPageToken that is a list, not a string/],
];

describe('transactions list', () => {
  for (const format of ['ndjson', 'json']) {
    for (const [what, value, message] of BAD_TOKENS) {
      test(`a nextPageToken that is ${what}: exit 7 with and without --all (-o ${format})`, async () => {
        pages = { '': `{"transactions":[${t1}],"nextPageToken":${value}}` };
        for (const all of [['--all'], []]) {
          const r = await run(['transactions', 'list', ...all, '-o', format]);
          expect(r.code, r.stderr).toBe(7);
          expect(r.stderr).toMatch(/GET \/data\/v2\/transactions answered 200 \(application\/json\) with /);
          expect(r.stderr).toMatch(message);
          expect(r.stdout).toBe('');
        }
      });
    }

    test(`no nextPageToken: exit 7 under --all and --limit, the last page when one page is read (-o ${format})`, async () => {
      pages = { '': `{"transactions":[${t1}]}` };
      for (const follow of [['--all'], ['--limit', '10']]) {
        const r = await run(['transactions', 'list', ...follow, '-o', format]);
        expect(r.code, r.stderr).toBe(7);
        expect(r.stderr).toMatch(/with no nextPageToken \(the last page has "nextPageToken": ""\)/);
        expect(r.stdout).toBe('');
      }
      const one = await run(['transactions', 'list', '-o', format]);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stdout).toContain('"t1"');
      expect(one.stderr).not.toMatch(/more transactions/);
    });

    test(`a later page with a bad token stops the walk with exit 7 (-o ${format})`, async () => {
      pages = {
        '': `{"transactions":[${t1}],"nextPageToken":"p2"}`,
        p2: '{"transactions":[{"id":"t2"}],"nextPageToken":null}',
      };
      const r = await run(['transactions', 'list', '--all', '-o', format]);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/a nextPageToken that is null/);
      expect(server.seen).toHaveLength(2);
    });
  }
});

describe('the data v2 pager (accounts list --v2)', () => {
  test('null or a number: exit 7; missing: exit 7 under --all, the last page otherwise', async () => {
    for (const value of ['null', '5']) {
      pages = { '': `{"accounts":[{"id":"a1","name":"A"}],"nextPageToken":${value}}` };
      const r = await run(['accounts', 'list', '--v2', '--all', '-o', 'json']);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/GET \/data\/v2\/accounts answered 200 .* a nextPageToken that is/);
    }
    pages = { '': '{"accounts":[{"id":"a1","name":"A"}]}' };
    const all = await run(['accounts', 'list', '--v2', '--all', '-o', 'json']);
    expect(all.code, all.stderr).toBe(7);
    expect(all.stderr).toMatch(/no nextPageToken/);
    const one = await run(['accounts', 'list', '--v2', '-o', 'json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual([{ id: 'a1', name: 'A' }]);
  });
});

describe('the tokens of a walk', () => {
  test('any repeat is found; long tokens are told apart by digest', () => {
    const seen = new SeenTokens();
    expect(seen.repeated('a')).toBe(false);
    expect(seen.repeated('b')).toBe(false);
    expect(seen.repeated('a')).toBe(true);
    const long = 'x'.repeat(5000);
    expect(seen.repeated(long)).toBe(false);
    expect(seen.repeated(`${long}y`)).toBe(false);
    expect(seen.repeated(long)).toBe(true);
  });

  test('past the remembered tokens a cycle is still found, in bounded memory', () => {
    const seen = new SeenTokens();
    let k = 0;
    // 250,000 distinct tokens fill what is remembered one by one
    for (; k < 250_000; k++) if (seen.repeated(`t${k}`)) throw new Error(`t${k} taken for a repeat`);
    // then a cycle of 1,000 tokens: found within a few laps
    let steps = 0;
    while (!seen.repeated(`c${steps % 1000}`)) {
      steps++;
      if (steps > 10_000) throw new Error('the cycle was not found');
    }
    expect(steps).toBeGreaterThanOrEqual(1000);
  });
});

describe('real pages (the sandbox)', () => {
  let t: TestEnv;
  beforeAll(async () => {
    t = await startTestSandbox({ seed: 11 });
  });
  afterAll(() => t.close());

  test('transactions list --all: every transaction once, ndjson to a pipe and json agree, exit 0', async () => {
    const r = await reader(t.sandbox, 'SE', ['transactions:read', 'accounts:read']);
    const a = addAccount(t.sandbox.store, r.userId);
    const N = 1234;
    for (let i = 0; i < N; i++) addTx(t.sandbox.store, a, `-${i}.25`, '2024-03-01', { description: `Shop ${i}, "x"` });
    const env = { ...t.env, BANKCTL_TOKEN: r.token };
    const nd = await spawnCli(['transactions', 'list', '--all', '-o', 'ndjson'], { env });
    expect(nd.code, nd.stderr).toBe(0);
    const lines = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string });
    expect(lines).toHaveLength(N);
    expect(new Set(lines.map((l) => l.id)).size).toBe(N);
    const js = await spawnCli(['transactions', 'list', '--all', '-o', 'json', '--page-size', '37'], { env });
    expect(js.code, js.stderr).toBe(0);
    expect(JSON.parse(js.stdout)).toEqual(lines);
    const limited = await spawnCli(['transactions', 'list', '--limit', '250', '-o', 'ndjson'], { env });
    expect(limited.code, limited.stderr).toBe(0);
    expect(limited.stdout.trim().split('\n')).toHaveLength(250);
    const one = await spawnCli(['transactions', 'list', '-o', 'ndjson', '--page-size', '10'], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout.trim().split('\n')).toHaveLength(10);
    expect(one.stderr).toMatch(/more transactions: use --all, or --page-token /);
    const api = await spawnCli(['api', 'GET', '/data/v2/transactions', '--paginate', '-o', 'ndjson'], { env });
    expect(api.code, api.stderr).toBe(0);
    expect(api.stdout.trim().split('\n')).toHaveLength(N);
  });
});
