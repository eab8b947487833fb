// The connector commands through the CLI: each documented status maps to the contract's exit code,
// pending to booked both ways, batch statuses, token generation.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { call, ndjsonLine, userWithAccounts } from './helpers.js';
import { hangUp, reply, scriptedServer, type Step } from '../helpers/scripted-server.js';

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await startTestSandbox();
  dir = tempDir();
  await userWithAccounts(env, 'cli', 2);
});
afterAll(async () => env.close());

const cli = (args: string[], stdin?: string) => runCli(['connector', ...args], { env: env.env, stdin });

/** bankctl connector ARGS against a scripted server (retries without waiting), and what it was sent. */
async function againstScript(steps: Step[], args: string[], retries: string) {
  const s = await scriptedServer(steps);
  try {
    const r = await runCli(['connector', ...args], {
      env: { ...env.env, BANKCTL_BASE_URL: s.url, BANKCTL_RETRIES: retries },
      context: { sleep: async () => undefined },
    });
    return { ...r, requests: s.seen.length, bodies: s.seen.map((x) => x.body) };
  } finally {
    await s.close();
  }
}
const txJson = (externalId: string, extra = '') =>
  `{"externalId":"${externalId}","amount":-12.30,"date":1700000000000,"description":"Shop","type":"DEFAULT"${extra}}`;
const update = (externalId: string, extra = '') =>
  `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"acc-0","balance":100,"transactions":[${txJson(externalId, extra)}]}]}`;

describe('exit codes follow the service status', () => {
  test('users: 0, 2 (400), 4 (404 market), 5 (409), 3 (401)', async () => {
    expect((await cli(['users', 'create', '--external-id', 'c-1', '--user-token', 't', '--market', 'SE'])).code).toBe(
      0,
    );
    // the token on stdin: a --user-token on the command line adds a warning line
    const again = await cli(['users', 'create', '--external-id', 'c-1', '--user-token-stdin', '--market', 'SE'], 't\n');
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/409.*already exists/);
    expect(again.stderr.trim().split('\n')).toHaveLength(again.stderr.includes('hint') ? 2 : 1);
    // the CLI checks the market itself (2) ...
    expect((await cli(['users', 'create', '--external-id', 'c-2', '--user-token', 't', '--market', 'XX'])).code).toBe(
      2,
    );
    // ... and the service's 404 for one it does not know maps to 4 (through the raw escape hatch)
    const viaApi = await runCli(['api', 'POST', '/connector/users', '--input', '-'], {
      env: env.env,
      stdin: '{"externalId":"c-2","token":"t","market":"XX"}',
    });
    expect(viaApi.code).toBe(4);
    expect((await cli(['users', 'update', 'c-1', '--user-token', 't', '--locale', 'xx_XX'])).code).toBe(2);
    const missing = await cli(['users', 'update', 'ghost', '--user-token', 't']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('401');
    // the token was fine: the hint names the missing user and the command that makes it
    expect(missing.stderr).toContain('no connector user ghost on the service');
    expect(missing.stderr).toContain(
      '`bankctl connector users create --external-id ghost --market <market> --user-token-stdin < token.txt`',
    );
    expect(missing.stderr).not.toContain('check the connector token');
    // a wrong token still says so
    const badToken = await runCli(['connector', 'users', 'update', 'c-1', '--user-token', 't'], {
      env: { ...env.env, BANKCTL_CONNECTOR_TOKEN: 'wrong' },
    });
    expect(badToken.code).toBe(3);
    expect(badToken.stderr).toContain('check the connector token');
    expect((await cli(['users', 'delete', 'c-1', '--yes'])).code).toBe(0);
    expect((await cli(['users', 'delete', 'c-1', '--yes'])).code).toBe(3);
  });

  test('accounts: push 0 then 5 (409), 2 (400), update 4 (404), delete 0', async () => {
    await call(env, 'POST', '/connector/users', { externalId: 'c-acc', token: 't', market: 'SE' });
    const file = join(dir, 'accounts.json');
    writeFileSync(
      file,
      '{"accounts": [\n  {"externalId": "a", "name": "Main", "number": "1", "balance": 10.05, "type": "CHECKING"}\n]}\n',
    );
    expect((await cli(['accounts', 'push', '--user', 'c-acc', '--file', file])).code).toBe(0);
    expect((await cli(['accounts', 'push', '--user', 'c-acc', '--file', file])).code).toBe(5);
    const bad = join(dir, 'bad-accounts.json');
    writeFileSync(
      bad,
      '{"accounts": [\n  {"externalId": "b", "name": "Main", "number": "1", "balance": 1, "type": "CHECKING"},\n  {"externalId": "c", "name": "Main", "number": "1", "balance": "1", "type": "CHECKING"}\n]}\n',
    );
    const r = await cli(['accounts', 'push', '--user', 'c-acc', '--file', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:3: accounts[1].balance: must be a number`);
    expect((await cli(['accounts', 'update', 'nope', '--user', 'c-acc', '--name', 'x'])).code).toBe(4);
    expect((await cli(['accounts', 'update', 'a', '--user', 'c-acc', '--closed'])).code).toBe(0);
    expect((await cli(['accounts', 'delete', 'a', '--user', 'c-acc', '--yes'])).code).toBe(0);
    expect((await cli(['accounts', 'delete', 'a', '--user', 'c-acc', '--yes'])).code).toBe(4);
  });

  test('transactions: 412 and 410 are 5, a 404 is 4, a 400 from the service is 2', async () => {
    await call(env, 'POST', '/connector/users', { externalId: 'c-empty', token: 't', market: 'SE' });
    const f = join(dir, 'one.ndjson');
    writeFileSync(
      f,
      ndjsonLine(
        {
          account: 'acc-0',
          externalId: 'e-1',
          amount: '1.00',
          date: 1_700_000_000_000,
          description: 'x',
          type: 'DEFAULT',
        },
        '1',
      ),
    );
    const noAccounts = await cli(['push', '--user', 'c-empty', '--file', f]);
    expect(noAccounts.code).toBe(5);
    expect(noAccounts.stderr).toContain('412');
    // and what to do about it: the accounts come from `connector accounts push`, not from --accounts
    expect(noAccounts.stderr).toContain(
      'create the accounts first with: bankctl connector accounts push --user c-empty',
    );
    // an account the service does not know: its 400
    const f2 = join(dir, 'unknown-account.ndjson');
    writeFileSync(
      f2,
      ndjsonLine(
        {
          account: 'acc-9',
          externalId: 'e-2',
          amount: '1.00',
          date: 1_700_000_000_000,
          description: 'x',
          type: 'DEFAULT',
        },
        '1',
      ),
    );
    const unknown = await cli(['push', '--user', 'cli', '--file', f2]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('create the accounts first with: bankctl connector accounts push --user cli');
    expect((await cli(['push', '--user', 'cli', '--file', f])).code).toBe(0);
    expect(
      (
        await cli([
          'transactions',
          'delete',
          '--yes',
          '--user',
          'cli',
          '--account',
          'acc-0',
          '--balance',
          '0',
          '--transaction',
          'e-1',
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await cli([
          'transactions',
          'delete',
          '--yes',
          '--user',
          'cli',
          '--account',
          'acc-0',
          '--balance',
          '0',
          '--transaction',
          'e-1',
        ])
      ).code,
    ).toBe(4);
    // a re-push of a deleted transaction is not an error of the push: reported, exit 0
    const again = await cli(['push', '--user', 'cli', '--file', f]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('deleted before 1');
    // ... but the batch endpoint reports its 410 as exit 5
    const batch = JSON.stringify({
      ingestEntities: [{ entityId: 'x', externalUserId: 'cli', container: JSON.parse(update('e-1')) }],
    });
    const b = await cli(['batch', '--file', '-'], batch);
    expect(b.code).toBe(5);
    expect(JSON.parse(b.stdout)).toEqual([expect.objectContaining({ entityId: 'x', httpStatus: 410 })]);
    expect((await cli(['transactions', 'update', 'nope', '--user', 'cli', '--data', update('nope')])).code).toBe(4);
  });

  test("an unknown user on the transaction endpoints: the service's 404 is exit 4, the spec's 401 exit 3, both name the user", async () => {
    const f = join(dir, 'ghost.ndjson');
    writeFileSync(
      f,
      ndjsonLine(
        {
          account: 'acc-0',
          externalId: 'gh-1',
          amount: '1',
          date: 1_700_000_000_000,
          description: 'x',
          type: 'DEFAULT',
        },
        '1',
      ),
    );
    const hint =
      'no connector user ghost on the service: create it with `bankctl connector users create --external-id ghost';
    // the sandbox answers as the vendor's reference lists it: 404 "User with the given external id not found"
    for (const args of [
      ['push', '--user', 'ghost', '--file', f],
      ['transactions', 'update', 'gh-1', '--user', 'ghost', '--data', update('gh-1')],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(4);
      expect(r.stderr).toContain('404');
      expect(r.stderr).toContain(hint);
      expect(r.stderr).not.toContain('check the connector token');
    }
    // a service that says it in words only (the reference shows no body), and one answering as the spec did (401)
    for (const [step, code] of [
      [reply(404, 'User with the given external id not found', { 'content-type': 'text/plain' }), 4],
      [reply(401, '{"errorMessage":"user \\"ghost\\" not found","errorCode":"user.not_found"}'), 3],
    ] as const) {
      const r = await againstScript([step], ['push', '--user', 'ghost', '--file', f], '0');
      expect(r.code).toBe(code);
      expect(r.stderr).toContain(hint);
    }
    // a 404 about a transaction is not about the user
    const nope = await cli(['transactions', 'update', 'nope', '--user', 'cli', '--data', update('nope')]);
    expect(nope.code).toBe(4);
    expect(nope.stderr).not.toContain('no connector user');
  });

  test('429 after the retries is 6, 5xx is 7, a refused connection is 8', async () => {
    let status = 429;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' })
          .end('{"errorMessage":"slow down","errorCode":"x"}'),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const f = join(dir, 'x.ndjson');
      writeFileSync(
        f,
        ndjsonLine(
          {
            account: 'acc-0',
            externalId: 'x-1',
            amount: '1',
            date: 1_700_000_000_000,
            description: 'x',
            type: 'DEFAULT',
          },
          '1',
        ),
      );
      const e = { ...env.env, BANKCTL_BASE_URL: base, BANKCTL_RETRIES: '1' };
      const r429 = await runCli(['connector', 'push', '--user', 'u', '--file', f], {
        env: e,
        context: { sleep: async () => undefined },
      });
      expect(r429.code).toBe(6);
      status = 503;
      expect(
        (
          await runCli(['connector', 'push', '--user', 'u', '--file', f], {
            env: e,
            context: { sleep: async () => undefined },
          })
        ).code,
      ).toBe(7);
      server.close();
      await new Promise((r) => setTimeout(r, 50));
      expect(
        (await runCli(['connector', 'users', 'delete', 'u', '--yes'], { env: { ...e, BANKCTL_RETRIES: '0' } })).code,
      ).toBe(8);
    } finally {
      server.close();
    }
  });
});

describe('a 409 after an answer that was lost', () => {
  test("on a resent chunk (a dropped connection, a 503) is this push's own delivery; on a first attempt, duplicates", async () => {
    const ids = ['lost-1', 'lost-2', 'lost-3'];
    const conflict = JSON.stringify({ errorMessage: 'exists', errorDetails: { externalIds: ids } });
    const f = join(dir, 'lost.ndjson');
    writeFileSync(
      f,
      ids
        .map((externalId) =>
          ndjsonLine(
            {
              account: 'acc-0',
              externalId,
              amount: '1.10',
              date: 1_700_000_000_000,
              description: 'x',
              type: 'DEFAULT',
            },
            '1',
          ),
        )
        .join('\n'),
    );
    const push = (...first: Step[]) =>
      againstScript([...first, reply(409, conflict)], ['push', '--user', 'u', '--file', f], '2');
    // the connection dropped after the request went out: the service may well have stored it
    const lost = await push(hangUp);
    expect(lost.code, lost.stderr).toBe(0);
    expect(lost.stderr).toContain('delivered 3, duplicates 0');
    // any resent chunk's 409 is its own delivery (the contract): a 503 may come after a store too
    const answered = await push(reply(503));
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stderr).toContain('delivered 3, duplicates 0');
    // a 409 on the first attempt: the service had them before
    const before = await push();
    expect(before.code, before.stderr).toBe(0);
    expect(before.stderr).toContain('delivered 0, duplicates 3');
  });
});

describe('connector accounts push after an answer that was lost', () => {
  test('is sent again; a 409 after no answer or a 5xx may be its own doing (exit 0), after a 429, naming fewer accounts or on the first attempt it is exit 5', async () => {
    const f = join(dir, 'accounts-lost.json');
    const account = (externalId: string) =>
      `{"externalId":"${externalId}","name":"Main","number":"1","balance":10.05,"type":"CHECKING"}`;
    writeFileSync(f, `{"accounts":[${account('acc-a')},${account('acc-b')}]}`);
    const conflict = (...ids: string[]) =>
      JSON.stringify({ errorMessage: 'account already exists', errorDetails: { externalIds: ids } });
    const push = (...steps: Step[]) => againstScript(steps, ['accounts', 'push', '--user', 'u', '--file', f], '2');
    // the connection dropped after the request went out, and the service had stored both
    const lost = await push(hangUp, reply(409, conflict('acc-a', 'acc-b')));
    expect(lost.code, lost.stderr).toBe(0);
    expect(lost.requests).toBe(2);
    expect(lost.bodies[1]).toBe(lost.bodies[0]);
    expect(lost.stderr).toContain(
      'the 2 account(s) of user u are on the service: an attempt that got no answer (or a 5xx) may have stored them',
    );
    // so may a 5xx
    const after500 = await push(reply(500), reply(409, conflict('acc-a', 'acc-b')));
    expect(after500.code, after500.stderr).toBe(0);
    expect(after500.stderr).toContain('the 2 account(s) of user u are on the service');
    // a 429 stored nothing: the 409 after it is about accounts that were there before
    const after429 = await push(reply(429, '', { 'retry-after': '0' }), reply(409, conflict('acc-a', 'acc-b')));
    expect(after429.requests).toBe(2);
    expect(after429.code).toBe(5);
    // a 503, then stored
    const after503 = await push(reply(503), reply(204));
    expect(after503.code, after503.stderr).toBe(0);
    expect(after503.stderr).toMatch(/^pushed 2 account\(s\) for user u$/m);
    // the retry's 409 names one of the two: one call stores all or none, so that one was there before
    const partial = await push(hangUp, reply(409, conflict('acc-a')));
    expect(partial.code).toBe(5);
    expect(partial.stderr).toContain('409');
    // a 409 on the first attempt: the accounts were there before this push
    const before = await push(reply(409, conflict('acc-a', 'acc-b')));
    expect(before.code).toBe(5);
    expect(before.requests).toBe(1);
  });
});

describe('generating a read token', () => {
  test('is sent again after a 503 or a dropped connection (it has no effect to repeat): verify no longer dies of one', async () => {
    const token = JSON.stringify({ token: 'read-tok-1', expiry: 1_900_000_000_000 });
    const r = await againstScript(
      [reply(503), hangUp, reply(200, token)],
      ['token', '--user', 'u', '--scope', 'transactions:read'],
      '3',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('read-tok-1');
    expect(r.requests).toBe(3);
  });
});

describe('pending to booked, both ways of section 3', () => {
  const rec = (ext: string) => [...env.sandbox.store.transactions.values()].find((t) => t.externalId === ext);

  test('a non-pending transaction with PENDING_IDS replaces the pending ones and takes their category', async () => {
    const pending = join(dir, 'pending.ndjson');
    writeFileSync(
      pending,
      ndjsonLine(
        {
          account: 'acc-1',
          externalId: 'p-1',
          amount: '-40.00',
          date: 1_700_000_000_000,
          description: 'Hotel (reserved)',
          type: 'DEFAULT',
          pending: true,
        },
        '500',
      ),
    );
    expect((await cli(['push', '--user', 'cli', '--file', pending])).code).toBe(0);
    expect(rec('p-1')!.status).toBe('PENDING');
    rec('p-1')!.categoryId = 'c0ffee00c0ffee00c0ffee00c0ffee00'; // as if the user had categorised it
    const booked = join(dir, 'booked.ndjson');
    writeFileSync(
      booked,
      ndjsonLine(
        {
          account: 'acc-1',
          externalId: 'b-1',
          amount: '-38.50',
          date: 1_700_000_100_000,
          description: 'Hotel',
          type: 'DEFAULT',
          pending: false,
          payload: { PENDING_IDS: ['p-1'], TAGS: ['travel', 'work'] },
        },
        '461.50',
      ),
    );
    expect((await cli(['push', '--user', 'cli', '--file', booked])).code).toBe(0);
    expect(rec('p-1')).toBeUndefined();
    expect(rec('b-1')).toMatchObject({
      status: 'BOOKED',
      amount: '-38.50',
      categoryId: 'c0ffee00c0ffee00c0ffee00c0ffee00',
      notes: '#travel #work',
      payload: { PENDING_IDS: ['p-1'], TAGS: ['travel', 'work'] },
    });
    const created = env.sandbox.events.recent.filter(
      (e) =>
        e.event === 'transaction:create' &&
        (e.content as { identifiers: { providerTransactionId: string } }).identifiers.providerTransactionId === 'b-1',
    );
    expect(created).toHaveLength(1);
    expect(created[0]!.content).toMatchObject({
      partnerPayload: { TAGS: ['travel', 'work'] },
      amount: { value: { unscaledValue: '-3850', scale: '2' } },
    });
  });

  test('PUT with pending=false books it under the same externalId', async () => {
    const f = join(dir, 'pending2.ndjson');
    writeFileSync(
      f,
      ndjsonLine(
        {
          account: 'acc-0',
          externalId: 'p-2',
          amount: '-12.30',
          date: 1_700_000_000_000,
          description: 'Shop',
          type: 'DEFAULT',
          pending: true,
        },
        '100',
      ),
    );
    expect((await cli(['push', '--user', 'cli', '--file', f])).code).toBe(0);
    const id = rec('p-2')!.id;
    const r = await cli([
      'transactions',
      'update',
      'p-2',
      '--user',
      'cli',
      '--data',
      update('p-2', ',"pending":false'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(rec('p-2')).toMatchObject({ id, status: 'BOOKED', externalId: 'p-2' });
    expect(
      env.sandbox.events.recent.some(
        (e) =>
          e.event === 'transaction:update' &&
          (e.content as { id: string }).id === id &&
          (e.content as { status: string }).status === 'BOOKED',
      ),
    ).toBe(true);
  });
});

describe('token', () => {
  test('prints the bare token; a ttl over 3 hours is refused before sending', async () => {
    const r = await cli(['token', '--user', 'cli', '--scope', 'transactions:read,accounts:read', '--ttl', '600']);
    expect(r.code, r.stderr).toBe(0);
    const token = r.stdout.trim();
    expect(env.sandbox.store.tokens.get(token)).toMatchObject({ kind: 'user' });
    expect(r.stdout).toBe(`${token}\n`);
    expect((await cli(['token', '--user', 'cli', '--scope', 'transactions:read', '--ttl', '10801'])).code).toBe(2);
  });
});

describe('help', () => {
  test('every connector command has examples', async () => {
    for (const args of [
      [],
      ['users'],
      ['accounts'],
      ['transactions'],
      ['users', 'create'],
      ['users', 'update'],
      ['users', 'delete', '--yes'],
      ['accounts', 'push'],
      ['accounts', 'update'],
      ['accounts', 'delete'],
      ['transactions', 'delete'],
      ['transactions', 'update'],
      ['batch'],
      ['token'],
      ['push'],
      ['verify'],
    ]) {
      const r = await cli([...args, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout, args.join(' ')).toContain('Examples:');
    }
  });

  test('push --help shows what an input line is, and that line, piped as shown, is pushed', async () => {
    // the examples named files only: what a line of transactions.ndjson holds was in no help text
    const help = (await cli(['push', '--help'])).stdout;
    const m = /\$ echo '(\{.*\})' \| bankctl (connector push [^#]*?)\s+#/.exec(help);
    expect(m, 'an example piping one ndjson line into connector push').not.toBeNull();
    await userWithAccounts(env, 'alice', 2);
    const r = await runCli(m![2]!.split(/\s+/), { env: env.env, stdin: `${m![1]}\n` });
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/delivered 1, duplicates 0, rejected 0/)]);
  });
});

describe('user token from stdin', () => {
  test('--user-token-stdin keeps the token out of argv, and HTTP Basic works with it', async () => {
    const r = await cli(
      ['users', 'create', '--external-id', 'stdin-user', '--user-token-stdin', '--market', 'GB'],
      's3cret-token\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(env.sandbox.store.userByExternalId('stdin-user')).toMatchObject({
      locale: 'en_GB',
      connector: { token: 's3cret-token' },
    });
    expect(r.stderr + r.stdout).not.toContain('s3cret-token');
  });
});

describe('user mistakes are one-line errors with exit 2', () => {
  test('missing input, unwritable checkpoint/report/rejects, unknown format', async () => {
    const cases: Array<[string[], string]> = [
      [['push', '--user', 'cli', '--file', join(dir, 'missing.ndjson')], '--file: cannot read'],
      [['push', '--user', 'cli', '--file', dir, '--format', 'ndjson'], 'not a regular file'],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--accounts', join(dir, 'nope.ndjson')],
        '--accounts: cannot read',
      ],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--checkpoint', join(dir, 'no', 'such', 'dir')],
        '--checkpoint: cannot write',
      ],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--report', join(dir, 'no', 'r.json')],
        '--report: cannot write',
      ],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--report', dir],
        `--report: ${dir} is a directory; give a file name`,
      ],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--skip-invalid', join(dir, 'no', 'rej')],
        '--skip-invalid: cannot write',
      ],
      [['push', '--user', 'cli', '--file', join(dir, 'one.txt')], 'cannot tell the format'],
      // a mistyped path is said to be one, whatever its extension
      [['push', '--user', 'cli', '--file', join(dir, 'missing')], '--file: cannot read'],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--type', 'NOW'],
        '--type must be one of REAL_TIME, HISTORICAL, BATCH, got "NOW"',
      ],
      [
        ['push', '--user', 'cli', '--file', join(dir, 'one.ndjson'), '--concurrency', '0'],
        '--concurrency must be a whole number from 1 to 64, got 0',
      ],
      [['verify', '--user', 'cli', '--file', join(dir, 'missing.csv')], '--file: cannot read'],
      [['transactions', 'update', 'x', '--user', 'cli', '--data', '{"type":"REAL_TIME"'], 'malformed JSON'],
    ];
    writeFileSync(join(dir, 'one.txt'), 'x');
    for (const [args, msg] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(msg);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  test('a client token without the scope: 403, exit 3', async () => {
    const { clientToken } = await import('../helpers/sandbox.js');
    const weak = await clientToken(env.sandbox, ['accounts:read']);
    const r = await runCli(['connector', 'users', 'delete', 'cli', '--yes'], {
      env: { ...env.env, BANKCTL_CONNECTOR_TOKEN: undefined, BANKCTL_TOKEN: weak },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('403');
  });
});

// Two pushes on one checkpoint each wrote their own view of what was delivered: the second is
// refused while the first lives; a lock its dead owner left behind is taken over.
describe('one push at a time on a checkpoint', () => {
  test('a live push holding it: exit 2 naming the process, nothing sent; a dead owner: taken over', async () => {
    const f = join(dir, 'locked.ndjson');
    writeFileSync(
      f,
      ndjsonLine(
        {
          account: 'acc-0',
          externalId: 'lk-1',
          amount: '1.00',
          date: 1_700_000_000_000,
          description: 'x',
          type: 'DEFAULT',
        },
        '5.00',
      ),
    );
    const ckpt = join(dir, 'locked.ckpt');
    // another live process (this one's own pid, in a lock it does not hold, is an earlier life of it)
    writeFileSync(`${ckpt}.lock`, `${process.ppid}\n`);
    const refused = await cli(['push', '--user', 'cli', '--file', f, '--checkpoint', ckpt]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`the checkpoint is locked by process ${process.ppid}`);
    // a pid that is not alive (pid_max is far below it)
    writeFileSync(`${ckpt}.lock`, '999999999\n');
    const ok = await cli(['push', '--user', 'cli', '--file', f, '--checkpoint', ckpt]);
    expect(ok.code, ok.stderr).toBe(0);
    // delivered now, not a duplicate: the refused push sent nothing
    expect(ok.stderr).toMatch(/delivered 1, duplicates 0/);
    const { existsSync } = await import('node:fs');
    expect(existsSync(`${ckpt}.lock`)).toBe(false);
  });
});
