// Every exit code of the contract, through the real binary and real HTTP.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, runCli, spawnCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { never, reply, scriptedServer } from '../helpers/scripted-server.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('exit codes (contract)', () => {
  test('0: success, data on stdout only', async () => {
    const r = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: t.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).user_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test("2: a bad flag, a value the CLI rejects, and the service's 400", async () => {
    const badFlag = await spawnCli(['users', 'create', '--market', 'SE', '--frobnicate'], { env: t.env });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/unknown option '--frobnicate'/);
    // one line, the pointer as its hint, as every error line
    expect(badFlag.stderr).toBe("error: unknown option '--frobnicate' (see the command's --help for its options)\n");
    // a misspelt required flag is named as the slip it is, not as the required one missing
    const misspelt = await spawnCli(['users', 'create', '--markt', 'SE'], { env: t.env });
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toBe("error: unknown option '--markt' (Did you mean --market?)\n");
    const required = await spawnCli(['users', 'create'], { env: t.env });
    // one line naming the flag and what it takes, as bankctl's own refusals (not commander's wording)
    expect([required.code, required.stderr]).toEqual([
      2,
      expect.stringMatching(/^error: --market is required \(market, ISO 3166-1 \(AT, [A-Z, ]+\)\)\n$/),
    ]);
    const badNoun = await spawnCli(['frobnicate'], { env: t.env });
    expect(badNoun.code).toBe(2);
    expect(badNoun.stderr).toBe(
      "error: unknown command 'frobnicate' (see `bankctl --help` for the commands, `bankctl NOUN --help` for the verbs of a noun)\n",
    );
    // a verb that begins some verbs' names: those are the hint, on the error's own line
    const prefix = await spawnCli(['budgets', 'create'], { env: t.env });
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toBe("error: unknown command 'create' (Did you mean create-one-off or create-recurring?)\n");
    // no near spelling under a noun: the noun's verbs
    const verb = await spawnCli(['reports', 'list'], { env: t.env });
    expect([verb.code, verb.stderr]).toEqual([
      2,
      "error: unknown command 'list' (the commands of `bankctl reports` are create, get, pdf)\n",
    ]);
    // a verb and its alias are one suggestion, named by the verb
    const alias = await spawnCli(['webhooks', 'endpoints', 'lst'], { env: t.env });
    expect([alias.code, alias.stderr]).toEqual([2, "error: unknown command 'lst' (Did you mean list?)\n"]);
    // a switch given a value is one argument too many: the pointer names the switch, and its --no- form
    const favored = await spawnCli(['accounts', 'update', 'a1', '--favored', 'false'], { env: t.env });
    expect([favored.code, favored.stderr]).toEqual([
      2,
      "error: too many arguments for 'update'. Expected 1 argument but got 2. (--favored is a switch and takes no value: write --favored to set it, --no-favored to clear it)\n",
    ]);
    const all = await spawnCli(['transactions', 'list', '--all', 'true'], { env: t.env });
    expect(all.stderr).toContain('(--all is a switch and takes no value: write --all alone)');
    // a valued option's value is not a switch's: the general pointer
    const extra = await spawnCli(['accounts', 'update', 'a1', '--name', 'false', 'x'], { env: t.env });
    expect(extra.stderr).toContain("(see the command's --help for its arguments)");
    const typo = await spawnCli(['users', 'crate'], { env: t.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("error: unknown command 'crate' (Did you mean create?)\n");
    // the same mistakes with --help are the same errors, not the parent's help with exit 0
    for (const [argv, line] of [
      [['users', 'crate', '--help'], "error: unknown command 'crate' (Did you mean create?)\n"],
      [
        ['budgets', 'create', '-h'],
        "error: unknown command 'create' (Did you mean create-one-off or create-recurring?)\n",
      ],
      [['--profile', 'x', 'frobnicate', '--help'], badNoun.stderr],
    ] as const) {
      const r = await spawnCli([...argv], { env: t.env });
      expect([r.code, r.stderr, r.stdout]).toEqual([2, line, '']);
    }
    // a known path still has its help, and words after a command with an action are its operands
    const help = await spawnCli(['users', 'create', '--help'], { env: t.env });
    expect([help.code, help.stdout]).toEqual([0, expect.stringMatching(/^Usage: bankctl users create /)]);
    const operands = await spawnCli(['api', 'GET', '/nowhere', '--help'], { env: t.env });
    expect([operands.code, operands.stdout]).toEqual([0, expect.stringMatching(/^Usage: bankctl api /)]);
    const missing = await spawnCli(['users', 'create'], { env: t.env });
    expect(missing.code).toBe(2);
    const service400 = await spawnCli(['api', 'POST', '/api/v1/user/create', '-f', 'market=XX'], { env: t.env });
    expect(service400.code).toBe(2);
    expect(service400.stderr).toMatch(/^error: POST \/api\/v1\/user\/create failed: HTTP 400: unknown market "XX"/m);
    expect(service400.stderr.trim().split('\n')).toHaveLength(1);
    expect(service400.stderr).not.toMatch(/\n\s+at /);
  });

  test('3: wrong client secret (401) and a token without the scope (403)', async () => {
    const wrong = await spawnCli(['users', 'create', '--market', 'SE'], {
      env: { ...t.env, BANKCTL_CLIENT_SECRET: 'wrong-secret-123' },
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/HTTP 401: invalid client secret/);
    expect(wrong.stderr).not.toContain('wrong-secret-123');
    const token = (await spawnCli(['auth', 'token', '--scope', 'authorization:grant'], { env: t.env })).stdout.trim();
    const forbidden = await spawnCli(['users', 'create', '--market', 'SE'], {
      env: { ...t.env, BANKCTL_TOKEN: token },
    });
    expect(forbidden.code).toBe(3);
    expect(forbidden.stderr).toMatch(/HTTP 403/);
    expect(forbidden.stderr).not.toContain(token);
  });

  test("2: a user's read with no user says each way to name one, the profile's too", async () => {
    const r = await spawnCli(['transactions', 'list'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: GET \/data\/v2\/transactions needs a user token \(pass --user ID/);
    // the quick start keeps the user in the profile: a newcomer who left out --use learns how
    expect(r.stderr).toContain('`bankctl config set user ID` (or `users create --use`)');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    // the first thing a newcomer connects says the same
    const connect = await spawnCli(['credentials', 'connect', '--provider', 'se-test-password'], { env: t.env });
    expect(connect.code).toBe(2);
    expect(connect.stderr).toMatch(/^error: credentials connect acts for a user \(pass --user ID/);
    expect(connect.stderr).toContain('`bankctl config set user ID` (or `users create --use`)');
  });

  test('3: a given token of the other kind says which kind the command takes and how to get one', async () => {
    // the newcomer's slip: the client token of the quick start's `auth token --scope user:create`
    // handed to a user's read
    const client = (await spawnCli(['auth', 'token', '--scope', 'user:create'], { env: t.env })).stdout.trim();
    const read = await spawnCli(['transactions', 'list'], { env: { ...t.env, BANKCTL_TOKEN: client } });
    expect(read.code).toBe(3);
    expect(read.stderr).toMatch(/HTTP 403/);
    expect(read.stderr).toContain('this endpoint takes a user token with transactions:read');
    expect(read.stderr).toContain('pass --user ID');
    expect(read.stderr).toContain('`bankctl auth token --scope transactions:read --user ID`');
    expect(read.stderr.trim().split('\n')).toHaveLength(1);
    // and the other way round: a user token for a client's call
    const user = JSON.parse(
      (await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: t.env })).stdout,
    );
    const userToken = (
      await spawnCli(['auth', 'token', '--scope', 'transactions:read', '--user', user.user_id], { env: t.env })
    ).stdout.trim();
    const create = await spawnCli(['users', 'create', '--market', 'SE'], {
      env: { ...t.env, BANKCTL_TOKEN: userToken },
    });
    expect(create.code).toBe(3);
    expect(create.stderr).toContain('this endpoint takes a client token with user:create');
    expect(create.stderr).toContain('`bankctl auth token --scope user:create`');
    expect(create.stderr).not.toContain(userToken);
  });

  test('4: not found', async () => {
    const r = await spawnCli(
      ['auth', 'grant', '--user', '0123456789abcdef0123456789abcdef', '--scope', 'accounts:read'],
      { env: t.env },
    );
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/HTTP 404: user 0123456789abcdef0123456789abcdef does not exist/);
  });

  test('5: conflict', async () => {
    expect((await spawnCli(['users', 'create', '--market', 'SE', '--external-id', 'dup'], { env: t.env })).code).toBe(
      0,
    );
    const r = await spawnCli(['users', 'create', '--market', 'SE', '--external-id', 'dup'], { env: t.env });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/HTTP 409: a user with external id "dup" already exists/);
  });

  test('6: rate limited after the retries, 7: server error after the retries', async () => {
    const s = await scriptedServer((n) =>
      reply(
        n < 2 ? 429 : 503,
        n < 2 ? '{"type":"about:errors:too-many-requests","title":"Too Many Requests"}' : 'maintenance',
        {
          'retry-after': '0',
          'content-type': n < 2 ? 'application/problem+json' : 'text/plain',
        },
      ),
    );
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'x-token-1234' };
      const limited = await spawnCli(['api', 'GET', '/anything', '--retries', '1'], { env });
      expect(limited.code).toBe(6);
      expect(limited.stderr).toMatch(/HTTP 429: Too Many Requests/);
      expect(limited.stderr).toMatch(/retrying/);
      const down = await spawnCli(['api', 'GET', '/anything', '--retries', '1'], { env });
      expect(down.code).toBe(7);
      expect(down.stderr).toMatch(/HTTP 503: maintenance/);
      expect(s.seen).toHaveLength(4);
    } finally {
      await s.close();
    }
  });

  test("8: the service's 408 (it timed out waiting for the request) after the retries, not a usage error", async () => {
    const s = await scriptedServer(() => reply(408, '{"errorMessage":"request timeout","errorCode":"timeout"}'));
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'x-token-1234' };
      const r = await spawnCli(['transactions', 'list', '--retries', '1'], { env });
      expect(r.code, r.stderr).toBe(8);
      expect(r.stderr).toMatch(/HTTP 408: request timeout/);
      expect(s.seen).toHaveLength(2);
    } finally {
      await s.close();
    }
  });

  test('8: network errors and timeouts', async () => {
    const refused = await spawnCli(['version', '-o', 'json'], {
      env: { ...t.env, BANKCTL_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(refused.code).toBe(0); // version degrades: the server part is optional
    const r = await spawnCli(['users', 'create', '--market', 'SE'], {
      env: { ...t.env, BANKCTL_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/connection refused/);
    const s = await scriptedServer([never]);
    try {
      const slow = await spawnCli(['api', 'GET', '/slow', '--timeout', '0.3', '--retries', '0'], {
        env: { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'x-token-1234' },
      });
      expect(slow.code).toBe(8);
      expect(slow.stderr).toMatch(/timed out/);
    } finally {
      await s.close();
    }
  });

  test('130: interrupted by Ctrl-C while waiting on the network', async () => {
    const s = await scriptedServer([never]);
    try {
      const child = spawn(process.execPath, [BIN, 'api', 'GET', '/slow'], {
        env: { PATH: process.env.PATH, ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'x-token-1234' },
      });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (s.seen.length > 0) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      child.kill('SIGINT');
      const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
      expect(code).toBe(130);
      expect(stderr).toMatch(/interrupted/);
    } finally {
      await s.close();
    }
  });

  /**
   * Runs bankctl with node's module loader tracing on stderr (NODE_DEBUG=esm) and presses Ctrl-C the
   * moment a trace line matches `when`: a Ctrl-C that lands while the program's modules load.
   */
  async function ctrlCWhileLoading(args: string[], when: RegExp) {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, ...t.env, NODE_DEBUG: 'esm' },
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (c) => {
      stderr += c;
      if (!sent && when.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
      child.on('exit', (c, s) => r([c, s])),
    );
    // bankctl's own lines among the loader's
    return {
      sent,
      code,
      signal,
      lines: stderr.split('\n').filter((l) => /^(interrupted|error:|warning:|\s+at )/.test(l)),
    };
  }

  test('130 too when Ctrl-C comes while the program is still loading, not death by the signal', async () => {
    // the loader's first line: it begins loading the program, before the command's own handler exists
    const r = await ctrlCWhileLoading(['api', 'GET', '/version'], /^ESM \d+:/m);
    expect(r.sent).toBe(true);
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 130, signal: null });
    expect(r.lines).toEqual(['interrupted']);
  });

  test('a Ctrl-C while the command line is being read stops before the command starts', async () => {
    // `users list` is no command: a command line read after the Ctrl-C would say so after "interrupted"
    const r = await ctrlCWhileLoading(['users', 'list'], /dist\/chunks\/program-/);
    expect(r.sent).toBe(true);
    expect(r.code).toBe(130);
    expect(r.lines).toEqual(['interrupted']);
  });

  // a 2xx that is not what the endpoint returns is exit 7 (README), as consents update-link's
  // delegated grant without its code is: the credentials were not refused (that is a 4xx, exit 3)
  test('7, not 3: a token endpoint that answers 200 without an access token', async () => {
    const s = await scriptedServer([reply(200, '{"access_token": 42}')]);
    try {
      const r = await spawnCli(['auth', 'token'], { env: { ...t.env, BANKCTL_BASE_URL: s.url } });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/without an access_token/);
    } finally {
      await s.close();
    }
  });

  test('7, not 3: an authorization grant that answers 200 without its code', async () => {
    const s = await scriptedServer(
      () => (req, res, body) =>
        (req.url === '/api/v1/oauth/token'
          ? reply(200, '{"access_token":"tok-123456","expires_in":1800,"scope":"authorization:grant"}')
          : reply(200, '{"status":"ok"}'))(req, res, body),
    );
    try {
      const r = await spawnCli(['auth', 'token', '--user', 'u1', '--scope', 'accounts:read'], {
        env: { ...t.env, BANKCTL_BASE_URL: s.url },
      });
      expect([r.code, r.stderr]).toEqual([
        7,
        'error: the authorization grant (POST /api/v1/oauth/authorization-grant) answered 200 without a code\n',
      ]);
    } finally {
      await s.close();
    }
  });

  test('7 for a body of the wrong shape (a server answering null to users create)', async () => {
    const s = await scriptedServer(
      () => (req, res, body) =>
        (req.url === '/api/v1/oauth/token'
          ? reply(200, '{"access_token":"tok-123456","expires_in":1800}')
          : reply(200, 'null'))(req, res, body),
    );
    try {
      const r = await spawnCli(['users', 'create', '--market', 'SE', '--use'], {
        env: { ...t.env, BANKCTL_BASE_URL: s.url },
      });
      expect(r.code).toBe(7);
      expect(r.stderr).toContain('a body that is not a JSON object (it is null)');
    } finally {
      await s.close();
    }
  });

  test('1: an unexpected failure (a bug: here an injected sleep that throws) says so in one line, the stack only with --verbose', async () => {
    const s = await scriptedServer(() => reply(503, '{"errorMessage":"busy"}'));
    const crash = () => {
      throw new TypeError('Cannot read properties of null (reading "x")');
    };
    try {
      const env = { ...t.env, BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'tok-123456', BANKCTL_RETRIES: '1' };
      const r = await runCli(['users', 'get', '-q'], { env, context: { sleep: crash } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: unexpected: .*\(run with --verbose for details\)$/m);
      const v = await runCli(['users', 'get', '--verbose'], { env, context: { sleep: crash } });
      expect(v.code).toBe(1);
      expect(v.stderr).toMatch(/\n\s+at /);
    } finally {
      await s.close();
    }
  });
});
