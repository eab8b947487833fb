import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('bankctl api', () => {
  test('a body that is not JSON: as sent to a pipe, without control sequences on a terminal', async () => {
    const body = '{"name":"SE12 \u001b[30;40mHIDDEN\u001b[0m SE99"'; // cut short: not JSON
    const s = await scriptedServer(() => reply(200, body));
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' };
      const pipe = await runCli(['api', 'GET', '/api/v1/accounts/list'], { env });
      expect(pipe.code).toBe(0);
      expect(pipe.stdout).toBe(`${body}\n`);
      const tty = await runCli(['api', 'GET', '/api/v1/accounts/list'], { env, stdoutIsTTY: true });
      expect(tty.code).toBe(0);
      expect(tty.stdout).toBe('{"name":"SE12 HIDDEN SE99"\n');
    } finally {
      await s.close();
    }
  });

  test('JSON nested 200,000 deep: printed as it came (exit 0), not reshaped into rows (exit 7); never a crash', async () => {
    const body = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const s = await scriptedServer(() => reply(200, body));
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' };
      const plain = await runCli(['api', 'GET', '/api/v1/accounts/list'], { env });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toBe(`${body}\n`);
      const rows = await runCli(['api', 'GET', '/api/v1/accounts/list', '-o', 'ndjson'], { env });
      expect(rows.code, rows.stderr).toBe(7);
      expect(rows.stderr).toMatch(/nested too deep to reshape/);
      expect(rows.stdout).toBe('');
    } finally {
      await s.close();
    }
  });

  test('behind a base URL with a path (a gateway), an error body still goes to stdout', async () => {
    const body = '{"errorMessage":"no such account","errorCode":"account.not_found"}';
    const s = await scriptedServer(() => reply(404, body));
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: `${s.url}/gw/v1`, BANKCTL_TOKEN: 'tok-123456' };
      const r = await runCli(['api', 'GET', '/api/v1/accounts/list'], { env });
      expect(r.code).toBe(4);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(body));
    } finally {
      await s.close();
    }
  });

  test('--jq and --paginate read JSON: a 2xx login page or cut JSON is exit 7 naming it, nothing on stdout', async () => {
    for (const [type, body] of [
      ['text/html', '<html>Sign in</html>'],
      ['application/json', '{"transactions": ['],
    ] as const) {
      const s = await scriptedServer(() => (_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
      try {
        const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' };
        const jq = await runCli(['api', 'GET', '/api/v1/accounts/list', '--jq', '.accounts[0].id'], { env });
        expect(jq.stdout).toBe('');
        expect(jq.code, jq.stderr).toBe(7);
        expect(jq.stderr).toContain(`answered 200 (${type}) with a body that is not JSON (--jq reads JSON)`);
        const paged = await runCli(['api', 'GET', '/data/v2/transactions', '--paginate', '-o', 'ndjson'], { env });
        expect(paged.stdout).toBe('');
        expect(paged.code, paged.stderr).toBe(7);
        expect(paged.stderr).toContain(`answered 200 (${type}) with a body that is not JSON`);
        expect(paged.stderr).not.toContain('run it without --paginate');
      } finally {
        await s.close();
      }
    }
  });

  test('-o ndjson, -o csv and --fields shape the answer without --paginate too (they were ignored: pretty JSON, exit 0)', async () => {
    const body = JSON.stringify({
      accounts: [
        { id: 'a1', name: 'Everyday', balance: 1.5 },
        { id: 'a2', name: 'Savings', balance: 2 },
      ],
    });
    const s = await scriptedServer(() => reply(200, body));
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' };
      const get = (...extra: string[]) => runCli(['api', 'GET', '/api/v1/accounts/list', ...extra], { env });
      const nd = await get('-o', 'ndjson');
      expect(nd.code, nd.stderr).toBe(0);
      expect(nd.stdout).toBe('{"id":"a1","name":"Everyday","balance":1.5}\n{"id":"a2","name":"Savings","balance":2}\n');
      const csv = await get('-o', 'csv', '--fields', 'id,name');
      expect(csv.code, csv.stderr).toBe(0);
      expect(csv.stdout).toBe('id,name\r\na1,Everyday\r\na2,Savings\r\n');
      const fields = await get('--fields', 'id');
      expect(fields.code, fields.stderr).toBe(0);
      expect(JSON.parse(fields.stdout)).toEqual([{ id: 'a1' }, { id: 'a2' }]);
      const typo = await get('--fields', 'idd');
      expect(typo.code).toBe(2);
      expect(typo.stdout).toBe('');
      // without them the body goes out whole, as the service sent it
      const whole = await get();
      expect(JSON.parse(whole.stdout)).toEqual(JSON.parse(body));
    } finally {
      await s.close();
    }
  });

  test('a JSON body on a terminal: C1 controls escaped (JSON.stringify leaves them), the same data', async () => {
    const body = JSON.stringify({ name: 'SE12 \u009b30;40mHIDDEN\u009b0m SE99' });
    const s = await scriptedServer(() => reply(200, body));
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' };
      const tty = await runCli(['api', 'GET', '/api/v1/accounts/list'], { env, stdoutIsTTY: true });
      expect(tty.code).toBe(0);
      expect(tty.stdout).not.toMatch(/[\u001b\u009b]/);
      expect(JSON.parse(tty.stdout)).toEqual(JSON.parse(body));
    } finally {
      await s.close();
    }
  });

  test('authenticates like any command: the endpoint table picks the client token and scope', async () => {
    const r = await runCli(['api', 'POST', '/api/v1/user/create', '-f', 'market=SE', '-f', 'locale=sv_SE'], {
      env: t.env,
    });
    expect(r.code).toBe(0);
    const userId = JSON.parse(r.stdout).user_id;
    expect(t.sandbox.store.users.get(userId)?.locale).toBe('sv_SE');
    const tokens = [...t.sandbox.store.tokens.values()].filter((x) => x.kind === 'client');
    expect(tokens.some((x) => [...x.scopes].join() === 'user:create')).toBe(true);
  });

  test('--user obtains a user token; --as none sends nothing; errors print the body and exit by status', async () => {
    const userId = JSON.parse(
      (await runCli(['api', 'POST', '/api/v1/user/create', '-f', 'market=SE'], { env: t.env })).stdout,
    ).user_id;
    const del = await runCli(['api', 'POST', '/api/v1/user/delete', '--user', userId], { env: t.env });
    expect(del.code).toBe(0);
    const v = await runCli(['api', 'GET', '/version', '--as', 'none'], { env: t.env });
    expect(JSON.parse(v.stdout).version).toBeTruthy();
    const missing = await runCli(['api', 'GET', '/api/v1/nope', '--as', 'none'], { env: t.env });
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stdout).errorMessage).toMatch(/no such endpoint/);
    const bad = await runCli(['api', 'GET', 'relative/path'], { env: t.env });
    expect(bad.code).toBe(2);
    // worded as every other closed list: the values, then what was given
    const as = await runCli(['api', 'GET', '/version', '--as', 'admin'], { env: t.env });
    expect([as.code, as.stderr]).toEqual([
      2,
      'error: --as must be one of client, user, connector, none, got "admin"\n',
    ]);
  });

  test('--paginate follows nextPageToken to the end, unknown properties kept', async () => {
    const pages: Record<string, string> = {
      '': '{"transactions":[{"id":"1","x":{"y":1}},{"id":"2"}],"nextPageToken":"p2"}',
      p2: '{"transactions":[{"id":"3"}],"nextPageToken":"p3"}',
      p3: '{"transactions":[{"id":"4"}],"nextPageToken":""}',
    };
    const s = await scriptedServer(() => (req, res, body) => {
      const token = new URL(req.url!, 'http://x').searchParams.get('pageToken') ?? '';
      reply(200, pages[token] ?? '{}')(req, res, body);
    });
    try {
      const r = await runCli(
        ['api', 'GET', '/data/v2/transactions', '--paginate', '-o', 'ndjson', '-f', 'pageSize=2'],
        { env: { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456' } },
      );
      expect(r.code).toBe(0);
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)),
      ).toEqual([{ id: '1', x: { y: 1 } }, { id: '2' }, { id: '3' }, { id: '4' }]);
      expect(s.seen.map((x) => x.url)).toEqual([
        '/data/v2/transactions?pageSize=2',
        '/data/v2/transactions?pageSize=2&pageToken=p2',
        '/data/v2/transactions?pageSize=2&pageToken=p3',
      ]);
    } finally {
      await s.close();
    }
  });

  test('a path outside the endpoint table is refused without --as or --scope, and nothing is sent', async () => {
    const tokensBefore = t.sandbox.store.tokens.size;
    const r = await spawnCli(['api', 'GET', '/api/v1/nonexistent'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown endpoint: GET \/api\/v1\/nonexistent is not in the endpoint table/);
    expect(r.stderr).toMatch(/pass --scope SCOPE or --as/);
    expect(t.sandbox.store.tokens.size).toBe(tokensBefore);
    // with --as (and a scope for the token) it goes out, and the service's own answer is shown
    const sent = await spawnCli(['api', 'GET', '/api/v1/nonexistent', '--as', 'client', '--scope', 'providers:read'], {
      env: t.env,
    });
    expect(sent.code).toBe(4);
    expect(JSON.parse(sent.stdout).errorMessage).toMatch(/no such endpoint: GET \/api\/v1\/nonexistent/);
  });

  test("the token endpoint's error body never lands on stdout as if it were the answer", async () => {
    // an endpoint a client token may call (GET /api/v1/providers takes a user token since issue 21)
    const r = await spawnCli(['api', 'GET', '/api/v1/providers/markets', '--scope', 'no:such-scope'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/POST \/api\/v1\/oauth\/token failed: HTTP 400/);
  });
});
