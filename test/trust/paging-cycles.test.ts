// A nextPageToken the walk was given before (A -> B -> A, or the same twice in a row) points back to
// pages already read: every --all walk (transactions, accounts --v2, investment holdings, with every
// output format) and `api --paginate` stop with exit 7 naming the token, after a handful of requests,
// never looping; `api --paginate -o json` leaves its JSON array unclosed, as every list walk does, so
// that the pages read cannot pass for the whole answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readyTokenEnv } from '../helpers/scripted-server.js';
import { spawnCli } from '../helpers/cli.js';
import { MAX_EMPTY_PAGES } from '../../src/api/paging.js';

type Answer = (token: string, req: IncomingMessage) => unknown;
let answer: Answer = () => ({});
const requests: string[] = [];
let url = '';
let close: () => Promise<void>;

beforeAll(async () => {
  const server = createServer((req, res: ServerResponse) => {
    req.resume();
    requests.push(req.url!);
    const token = new URL(req.url!, 'http://x').searchParams.get('pageToken') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    // { rawBody } is sent as it is: a page that is not JSON
    const a = answer(token, req) as { rawBody?: string };
    res.end(typeof a?.rawBody === 'string' ? a.rawBody : JSON.stringify(a));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
});
afterAll(() => close());

const run = (args: string[]) => {
  requests.length = 0;
  return spawnCli(args, {
    env: readyTokenEnv(url),
    // an endless walk would be killed here (and fail every assertion below)
    timeoutMs: 15_000,
  });
};

/** The ids of NDJSON lines. */
const ids = (ndjson: string): string[] =>
  ndjson
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).id);

const tx = (id: string) => ({
  id,
  accountId: 'acc',
  amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-1050' } },
});
/** Page "" -> a, a -> b, b -> a (a cycle of two). */
const cycle = (token: string) => (token === 'a' ? 'b' : 'a');

describe('transactions list --all', () => {
  for (const format of ['ndjson', 'json', 'csv', 'table']) {
    test(`A -> B -> A: exit 7 naming the token, a few requests (-o ${format})`, async () => {
      answer = (token) => ({ transactions: [tx(`t-${token || '0'}`)], nextPageToken: cycle(token) });
      const r = await run(['transactions', 'list', '--all', '-o', format]);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/GET \/data\/v2\/transactions sent nextPageToken "a" again after 3 pages/);
      expect(r.stderr).toMatch(/repeat without end/);
      // the first page, a, b (whose token points back to a), and nothing after
      expect(requests.length).toBeLessThanOrEqual(4);
      expect(r.stdout.split('t-a').length - 1).toBeLessThanOrEqual(1);
    });
  }

  test('the same token twice in a row is exit 7 too (the service fault, not a usage error)', async () => {
    answer = () => ({ transactions: [tx('x')], nextPageToken: 'same' });
    const r = await run(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/nextPageToken "same" again after 2 pages/);
    expect(requests.length).toBe(2);
  });

  test('a token that points back to --page-token is a repeat', async () => {
    answer = () => ({ transactions: [tx('x')], nextPageToken: 'start' });
    const r = await run(['transactions', 'list', '--all', '--page-token', 'start', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/nextPageToken "start" again after 1 page:/);
    expect(requests.length).toBe(1);
  });

  test('a longer cycle with long tokens: found at the first repeat, the token shown shortened and escaped', async () => {
    const long = (k: number) => `${String(k).repeat(3)}\u001b[31m${'x'.repeat(200)}`;
    answer = (token) => {
      const k = token ? Number(token.slice(0, 1)) : 0;
      return { transactions: [tx(`t${k}`)], nextPageToken: long(k === 5 ? 1 : k + 1) };
    };
    const r = await run(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    // pages 0..5 asked for; page 5 points back to 1, so the walk stops before printing it
    expect(requests.length).toBe(6);
    expect(r.stdout.trim().split('\n')).toHaveLength(5);
    expect(r.stderr).toContain('nextPageToken "111\\u001b[31mxxx');
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('x'.repeat(60));
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  test('--limit follows pages too, and stops on a cycle before the limit', async () => {
    answer = (token) => ({ transactions: [tx(`t-${token || '0'}`)], nextPageToken: cycle(token) });
    const r = await run(['transactions', 'list', '--limit', '50', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(requests.length).toBeLessThanOrEqual(4);
  });

  test('a walk of distinct tokens ends normally (exit 0, every page once)', async () => {
    answer = (token) => {
      const k = token ? Number(token.slice(1)) : 0;
      return { transactions: [tx(`t${k}`)], nextPageToken: k < 40 ? `p${k + 1}` : '' };
    };
    const r = await run(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(Array.from({ length: 41 }, (_, k) => `t${k}`));
    expect(requests.length).toBe(41);
  });
});

describe('the data v2 pager', () => {
  test('accounts list --v2 --all: A -> B -> A is exit 7', async () => {
    answer = (token) => ({ accounts: [{ id: `acc-${token || '0'}`, name: 'A' }], nextPageToken: cycle(token) });
    const r = await run(['accounts', 'list', '--v2', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/GET \/data\/v2\/accounts sent nextPageToken "a" again after 3 pages/);
    expect(requests.length).toBeLessThanOrEqual(4);
  });

  test('investments holdings ID --all: A -> B -> A is exit 7', async () => {
    answer = (token) => ({ holdings: [{ id: `h-${token || '0'}` }], nextPageToken: cycle(token) });
    const r = await run(['investments', 'holdings', 'A1', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/holdings sent nextPageToken "a" again after 3 pages/);
    expect(requests.length).toBeLessThanOrEqual(4);
  });

  // the endpoints walk stopped at a repeated token, at a later page without a token, or after 100
  // pages, and printed the endpoints read so far with exit 0
  const hook = (id: string) => ({ id, url: `https://example.com/${id}`, enabledEvents: ['refresh:finished'] });
  test('webhooks endpoints list: A -> B -> A is exit 7, not the endpoints read so far with exit 0', async () => {
    answer = (token) => ({ webhookEndpoints: [hook(`w-${token || '0'}`)], nextPageToken: cycle(token) });
    const r = await run(['webhooks', 'endpoints', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/GET \/events\/v2\/webhook-endpoints sent nextPageToken "a" again after 3 pages/);
    expect(r.stdout).toBe('');
    expect(requests.length).toBeLessThanOrEqual(4);
  });

  test('webhooks endpoints list: the same token twice, or a later page without one, is exit 7', async () => {
    answer = () => ({ webhookEndpoints: [hook('w')], nextPageToken: 'same' });
    const same = await run(['webhooks', 'endpoints', 'list', '-o', 'json']);
    expect(same.code, same.stderr).toBe(7);
    expect(same.stderr).toMatch(/nextPageToken "same" again after 2 pages/);
    answer = (token) =>
      token ? { webhookEndpoints: [hook('w-a')] } : { webhookEndpoints: [hook('w-0')], nextPageToken: 'a' };
    const missing = await run(['webhooks', 'endpoints', 'get', 'w-z', '-o', 'json']);
    expect(missing.code, missing.stderr).toBe(7);
    expect(missing.stderr).toMatch(/no nextPageToken/);
  });

  test('webhooks endpoints list: more than 100 pages of distinct tokens are all read', async () => {
    answer = (token) => {
      const k = token ? Number(token.slice(1)) : 0;
      return { webhookEndpoints: [hook(`w${k}`)], nextPageToken: k < 120 ? `p${k + 1}` : '' };
    };
    const r = await run(['webhooks', 'endpoints', 'list', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(Array.from({ length: 121 }, (_, k) => `w${k}`));
    // a first page without a token is the whole list
    answer = () => ({ webhookEndpoints: [hook('only')] });
    const one = await run(['webhooks', 'endpoints', 'list', '-o', 'ndjson']);
    expect(one.code, one.stderr).toBe(0);
    expect(ids(one.stdout)).toEqual(['only']);
  });
});

describe('api --paginate', () => {
  const args = ['api', 'GET', '/data/v2/transactions', '--paginate'];

  test('A -> B -> A: exit 7, and the JSON array on stdout is left open (not a whole answer)', async () => {
    answer = (token) => ({ transactions: [tx(`t-${token || '0'}`)], nextPageToken: cycle(token) });
    const r = await run([...args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/nextPageToken "a" again after 3 pages/);
    expect(requests.length).toBe(3);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect((JSON.parse(`${r.stdout}]`) as Array<{ id: string }>).map((t) => t.id)).toEqual(['t-0', 't-a', 't-b']);
  });

  test('the list walk does the same: transactions list --all -o json leaves the array open', async () => {
    answer = (token) => ({ transactions: [tx(`t-${token || '0'}`)], nextPageToken: cycle(token) });
    const r = await run(['transactions', 'list', '--all', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(() => JSON.parse(r.stdout)).toThrow();
    // the pages before the repeated token, in order (the walk stops as it reads the token)
    const ids = (JSON.parse(`${r.stdout}]`) as Array<{ id: string }>).map((t) => t.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(['t-0', 't-a', 't-b'].slice(0, ids.length));
  });

  test('a connectivity v2 list is followed with page_token, its own parameter, to the last page', async () => {
    // it was sent as pageToken, which the service ignores: the first page came back with the same
    // token and the walk stopped with exit 7 blaming the service
    answer = (_token, req) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      const t = q.get('page_token') ?? '';
      const k = t ? Number(t.slice(1)) : 0;
      return { consents: [{ id: `c${k}` }], nextPageToken: k < 3 ? `p${k + 1}` : '' };
    };
    const r = await run(['api', 'GET', '/connectivity/v2/consents', '-f', 'page_size=1', '--paginate', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(requests.slice(1).every((u) => /[?&]page_token=p\d/.test(u) && !u.includes('pageToken'))).toBe(true);
  });

  test('the same token twice in a row: exit 7, NDJSON lines whole', async () => {
    answer = () => ({ transactions: [tx('x')], nextPageToken: 'same' });
    const r = await run([...args, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(ids(r.stdout)).toEqual(['x', 'x']);
  });

  test('an answer without a list (a single object) is exit 2, not [] with exit 0', async () => {
    // a user has a list among its fields (flags): that is no page either
    answer = () => ({ id: 'u-1', market: 'SE', flags: ['TEST'] });
    const r = await run(['api', 'GET', '/api/v1/user', '--paginate', '-o', 'json']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--paginate: the answer has no list to page through (it is an object)');
    expect(r.stdout).toBe('');
  });

  test.each([
    ['without a nextPageToken', {}, /page 2 has no nextPageToken .*whether more pages follow is unknown/],
    ['with a numeric nextPageToken', { nextPageToken: 12345 }, /page 2 has a nextPageToken that is the number 12345/],
    ['with a null nextPageToken', { nextPageToken: null }, /page 2 has a nextPageToken that is null/],
  ])('a later page %s: exit 7, the JSON array left open (not a whole answer)', async (_what, rest, message) => {
    answer = (token) =>
      token ? { transactions: [tx('t-a')], ...rest } : { transactions: [tx('t-0')], nextPageToken: 'a' };
    const r = await run([...args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(message);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect((JSON.parse(`${r.stdout}]`) as Array<{ id: string }>).map((t) => t.id)).toEqual(['t-0', 't-a']);
  });

  test('a later page that is not JSON (a maintenance page) is the service fault, exit 7, not a usage error', async () => {
    answer = (token) =>
      token ? { rawBody: '<html>maintenance</html>' } : { transactions: [tx('t-0')], nextPageToken: 'a' };
    const r = await run([...args, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('--paginate: page 2 has a body that is not JSON: "<html>maintenance</html>"');
    expect(ids(r.stdout)).toEqual(['t-0']);
  });

  test('a list endpoint that is not paged: one answer without nextPageToken is the whole list, exit 0', async () => {
    answer = () => ({ accounts: [{ id: 'a1' }, { id: 'a2' }] });
    const r = await run(['api', 'GET', '/api/v1/accounts/list', '--paginate', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(['a1', 'a2']);
  });

  test('with --jq nothing half-done is printed', async () => {
    answer = (token) => ({ transactions: [tx(`t-${token || '0'}`)], nextPageToken: cycle(token) });
    const r = await run([...args, '-o', 'json', '--jq', 'length']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toBe('');
  });

  test('a service error on a later page: exit by its status, the JSON array left open', async () => {
    requests.length = 0;
    answer = (token) => ({ transactions: [tx(`t-${token || '0'}`)], nextPageToken: token ? 'boom' : 'p2' });
    const server = createServer((req, res) => {
      req.resume();
      const token = new URL(req.url!, 'http://x').searchParams.get('pageToken') ?? '';
      if (token === 'boom') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorMessage: 'kaputt', errorCode: 'x' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(token, req)));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const r = await spawnCli([...args, '-o', 'json'], {
        env: readyTokenEnv(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        timeoutMs: 15_000,
      });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/HTTP 500/);
      expect(() => JSON.parse(r.stdout)).toThrow();
      expect((JSON.parse(`${r.stdout}]`) as Array<{ id: string }>).map((t) => t.id)).toEqual(['t-0', 't-p2']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  test('a walk of distinct tokens ends normally', async () => {
    answer = (token) => {
      const k = token ? Number(token.slice(1)) : 0;
      return { transactions: [tx(`t${k}`)], nextPageToken: k < 3 ? `p${k + 1}` : '' };
    };
    const r = await run([...args, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((t) => t.id)).toEqual(['t0', 't1', 't2', 't3']);
  });
});

// New tokens are never "seen before": a service that answers empty pages with a fresh token each
// time would be walked for ever. A run of MAX_EMPTY_PAGES empty pages stops the walk (exit 7); a
// shorter run (the sandbox answers one for a filter that matched nothing in a stretch) is walked on.
describe('empty pages with a new token every time', () => {
  const endless = (token: string) => {
    const k = token ? Number(token.slice(1)) : 0;
    // one transaction first, then empty pages for ever
    return { transactions: k === 0 ? [tx('first')] : [], nextPageToken: `e${k + 1}` };
  };

  for (const [name, args] of [
    ['transactions list --all -o ndjson (the raw walk)', ['transactions', 'list', '--all', '-o', 'ndjson']],
    ['transactions list --all -o json', ['transactions', 'list', '--all', '-o', 'json']],
    ['api --paginate', ['api', 'GET', '/data/v2/transactions', '--paginate', '-o', 'ndjson']],
  ] as const) {
    test(`${name}: exit 7 after ${MAX_EMPTY_PAGES} empty pages in a row`, async () => {
      answer = endless;
      const r = await run([...args]);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toContain(`${MAX_EMPTY_PAGES} empty pages in a row, each with a new nextPageToken`);
      expect(r.stderr).toContain('what was printed is incomplete');
      // the first page plus the empty run, give or take the page asked for ahead
      expect(requests.length).toBeGreaterThanOrEqual(MAX_EMPTY_PAGES + 1);
      expect(requests.length).toBeLessThanOrEqual(MAX_EMPTY_PAGES + 2);
      expect(r.stdout).toContain('first');
    }, 30_000);
  }

  test('accounts list --v2 --all stops the same way', async () => {
    answer = (token) => ({ accounts: [], nextPageToken: `e${token ? Number(token.slice(1)) + 1 : 1}` });
    const r = await run(['accounts', 'list', '--v2', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('GET /data/v2/accounts answered');
    expect(r.stderr).toContain(`${MAX_EMPTY_PAGES} empty pages in a row`);
  }, 30_000);

  test('a long run of empty pages that ends, then more transactions: walked whole (exit 0)', async () => {
    const gap = MAX_EMPTY_PAGES - 1;
    answer = (token) => {
      const k = token ? Number(token.slice(1)) : 0;
      const transactions = k === 0 || k === gap + 1 ? [tx(`t${k}`)] : [];
      return { transactions, nextPageToken: k <= gap ? `g${k + 1}` : '' };
    };
    const r = await run(['transactions', 'list', '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(['t0', `t${gap + 1}`]);
  }, 30_000);
});
