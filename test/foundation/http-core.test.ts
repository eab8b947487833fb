import { afterEach, describe, expect, test } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { hangUp, never, reply, scriptedServer } from '../helpers/scripted-server.js';

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

async function server(steps: Parameters<typeof scriptedServer>[0]) {
  const s = await scriptedServer(steps);
  closers.push(s.close);
  return s;
}

function client(url: string, opts: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  const sleeps: number[] = [];
  const notices: string[] = [];
  const c = new HttpClient({
    baseUrl: url,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 1,
    notice: (l) => notices.push(l),
    ...opts,
  });
  closers.push(() => c.close());
  return { c, sleeps, notices };
}

describe('the HTTP core against a real loopback server', () => {
  test('GET is retried on 503 with capped exponential backoff, then succeeds', async () => {
    const s = await server([reply(503), reply(502), reply(200, '{"ok":true,"extra":{"kept":1}}')]);
    const { c, sleeps, notices } = client(s.url);
    const res = await c.request({ method: 'GET', path: '/x' });
    expect(res.data).toEqual({ ok: true, extra: { kept: 1 } });
    expect(s.seen).toHaveLength(3);
    expect(sleeps).toEqual([250, 500]);
    expect(notices[0]).toMatch(/HTTP 503, retrying in 250ms \(retry 1 of 3\)/);
  });

  test('a programming error while waiting to retry is that error, not a network failure retried', async () => {
    const s = await server([reply(503), reply(503), reply(200, '{}')]);
    const bug = new TypeError('Cannot read properties of undefined');
    let thrown = false;
    const { c } = client(s.url, {
      // the first wait fails (a bug in the waiting); a later one would wait as asked
      sleep: async () => {
        if (thrown) return;
        thrown = true;
        throw bug;
      },
    });
    const err = await c.request({ method: 'GET', path: '/x' }).catch((e) => e);
    expect(err).toBe(bug);
    expect(s.seen, 'no further attempt after the error').toHaveLength(1);
  });

  test('429 honours Retry-After, even for POST', async () => {
    const s = await server([reply(429, '', { 'retry-after': '2' }), reply(200, '{}')]);
    const { c, sleeps } = client(s.url);
    await c.request({ method: 'POST', path: '/x', json: { a: 1 } });
    expect(sleeps).toEqual([2000]);
    expect(s.seen.map((x) => x.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  test('POST is not retried on 500 and the service message is kept', async () => {
    const s = await server([reply(500, '{"errorMessage":"boom","errorCode":"internal"}')]);
    const { c, sleeps } = client(s.url);
    const err = await c.request({ method: 'POST', path: '/x', json: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toMatch(/^POST \/x failed: HTTP 500: boom \(internal\) \[X-Request-ID sent [0-9a-f-]{36}\]$/);
    expect(sleeps).toEqual([]);
    expect(s.seen).toHaveLength(1);
  });

  test('a POST without an answer (dropped, timed out) is sent once; the error says it may have been carried out', async () => {
    for (const step of [hangUp, never]) {
      const s = await server([step, reply(200, '{}')]);
      const { c, sleeps } = client(s.url, { timeoutMs: 300 });
      const err = await c.request({ method: 'POST', path: '/x', json: { a: 1 } }).catch((e) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.exitCode).toBe(8);
      expect(err.hint).toBe(
        'the POST may have reached the service and been carried out; bankctl did not send it again: check before running it again',
      );
      expect(sleeps).toEqual([]);
      expect(s.seen).toHaveLength(1);
    }
    // refused: it never left, and is retried; a GET that timed out says nothing of the kind
    const { c } = client('http://127.0.0.1:1', { retry: { retries: 0 } });
    const refused = await c.request({ method: 'POST', path: '/x', json: {} }).catch((e) => e);
    expect(refused.hint).not.toMatch(/carried out/);
    const s = await server([never]);
    const get = await client(s.url, { timeoutMs: 200, retry: { retries: 0 } })
      .c.request({ method: 'GET', path: '/x' })
      .catch((e) => e);
    expect(get.exitCode).toBe(8);
    expect(get.hint).toBeUndefined();
  });

  test('a DELETE retried after no answer or a 5xx and then answered 404/410 is done, said on stderr; a first 404 is still one', async () => {
    for (const [first, gone] of [
      [hangUp, 404],
      [reply(503), 410],
    ] as const) {
      const s = await server([first, reply(gone, '{"errorMessage":"not found"}')]);
      const { c, notices } = client(s.url);
      const res = await c.request({ method: 'DELETE', path: '/x/1' });
      expect(res.status).toBe(gone);
      expect(s.seen).toHaveLength(2);
      expect(notices.at(-1)).toMatch(
        new RegExp(`HTTP ${gone} on a retry after an attempt that got no answer or a server error; taken as deleted`),
      );
    }
    const s = await server([reply(404, '{"errorMessage":"not found"}')]);
    const err = await client(s.url)
      .c.request({ method: 'DELETE', path: '/x/1' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.exitCode).toBe(4);
    // a 429 stores nothing: a 404 after it is the answer
    const limited = await server([reply(429, '', { 'retry-after': '0' }), reply(404, '{}')]);
    const after429 = await client(limited.url)
      .c.request({ method: 'DELETE', path: '/x/1' })
      .catch((e) => e);
    expect(after429.exitCode).toBe(4);
  });

  test('after the retries the last status decides the exit code', async () => {
    const s = await server([
      reply(429, '{"type":"about:errors:too-many-requests","title":"Too Many Requests"}', {
        'content-type': 'application/problem+json',
        'retry-after': '0',
      }),
    ]);
    const { c } = client(s.url, { retry: { retries: 2 } });
    const err = await c.request({ method: 'GET', path: '/x' }).catch((e) => e);
    expect(err.exitCode).toBe(6);
    expect(err.message).toContain('HTTP 429: Too Many Requests');
    expect(s.seen).toHaveLength(3);
  });

  test('a dropped connection is retried for GET', async () => {
    const s = await server([hangUp, reply(200, '[1,2]')]);
    const { c, sleeps, notices } = client(s.url);
    const res = await c.request({ method: 'GET', path: '/x' });
    expect(res.data).toEqual([1, 2]);
    expect(sleeps).toHaveLength(1);
    // in words, not undici's code
    expect(notices[0]).toMatch(/: connection reset by the server, retrying in \d+ms \(retry 1 of 3\)/);
  });

  test('a timeout is a network error (exit 8)', async () => {
    const s = await server([never]);
    const { c } = client(s.url, { timeoutMs: 200, retry: { retries: 0 } });
    const err = await c.request({ method: 'GET', path: '/slow' }).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.exitCode).toBe(8);
    expect(err.message).toMatch(/timed out/);
  });

  test('a body is handed back only when nothing can still hold it: a 2xx read with no attempt abandoned', async () => {
    // answered (even after a 503 retried) -> handed back; a timed-out attempt -> never, though a
    // later attempt succeeds: undici may still hold the abandoned one's body
    const s = await server([reply(503), reply(204), never, reply(204), reply(400, '{"errorMessage":"no"}')]);
    const { c } = client(s.url, { timeoutMs: 300 });
    const body = Buffer.from('{"a":1}');
    const done: string[] = [];
    const post = (name: string) =>
      c.request({ method: 'POST', path: '/in', body, idempotent: true, onBodyDone: () => done.push(name) });
    await post('retried after 503');
    await post('retried after a timeout');
    await expect(post('refused')).rejects.toBeInstanceOf(ApiError);
    expect(done).toEqual(['retried after 503']);
    expect(s.seen).toHaveLength(5);
  });

  test('connection refused is a network error with a hint', async () => {
    const s = await server([reply(200)]);
    await s.close();
    closers = closers.filter((c) => c !== s.close);
    const { c } = client(s.url, { retry: { retries: 0 } });
    const err = await c.request({ method: 'GET', path: '/x' }).catch((e) => e);
    expect(err.exitCode).toBe(8);
    expect(err.message).toContain('connection refused');
  });

  test('auth schemes as the server sees them', async () => {
    const s = await server([reply(200, '{}')]);
    const { c } = client(s.url);
    await c.request({ method: 'GET', path: '/a', auth: { scheme: 'Bearer', token: 'tok-bearer-1' } });
    await c.request({ method: 'GET', path: '/b', auth: { scheme: 'Token', token: 'tok-connector-1' } });
    await c.request({ method: 'GET', path: '/c', auth: { scheme: 'Basic', username: 'ext-user', password: 'p:ss' } });
    expect(s.seen.map((x) => x.headers.authorization)).toEqual([
      'Bearer tok-bearer-1',
      'Token tok-connector-1',
      `Basic ${Buffer.from('ext-user:p:ss').toString('base64')}`,
    ]);
  });

  test('forms are form-encoded and queries repeat', async () => {
    const s = await server([reply(200, '{}')]);
    const { c } = client(s.url);
    await c.request({
      method: 'POST',
      path: '/f',
      form: { a: 'x y', b: undefined, c: 'ä' },
      query: { s: ['BOOKED', 'PENDING'], n: 5, skip: undefined },
    });
    expect(s.seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(s.seen[0]!.body).toBe('a=x+y&c=%C3%A4');
    expect(s.seen[0]!.url).toBe('/f?s=BOOKED&s=PENDING&n=5');
  });

  test('the trace has method, URL, status and time, never a secret', async () => {
    const s = await server([reply(200, '{}'), reply(401, '{"errorMessage":"bad"}')]);
    const lines: string[] = [];
    const { c } = client(s.url, { trace: (l) => lines.push(l) });
    await c.request({
      method: 'POST',
      path: '/api/v1/oauth/token',
      form: { client_id: 'cid', client_secret: 'super-secret-value', code: 'the-auth-code-1' },
    });
    await c
      .request({
        method: 'GET',
        path: '/cb',
        query: { code: 'the-auth-code-1', token: 'tkn-in-query-123' },
        auth: { scheme: 'Bearer', token: 'bearer-token-xyz' },
      })
      .catch(() => undefined);
    const all = lines.join('\n');
    expect(lines[0]).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/oauth\/token -> 200 \(\d+ ms\) X-Request-ID sent [0-9a-f-]{36}$/,
    );
    for (const secret of ['super-secret-value', 'the-auth-code-1', 'tkn-in-query-123', 'bearer-token-xyz'])
      expect(all).not.toContain(secret);
  });
});
