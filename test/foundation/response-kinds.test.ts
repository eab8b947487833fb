// What a 2xx answer must be (issue 16): the contract entry's response kind says what an endpoint
// returns, and the client checks it once for every endpoint. An HTML login page, malformed or
// truncated JSON, or a wrong content type is an error naming the status, the content type and the
// first bytes (exit 7), never an empty list with exit 0. And JSON numbers keep their digits in every
// output format.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { scriptedServer, type Step, readyTokenEnv } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
/** What the server answers next, for every request. */
let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };

beforeAll(async () => {
  const step: Step = (_req, res) => {
    res.writeHead(answer.status, answer.type ? { 'content-type': answer.type } : {});
    res.end(answer.body);
  };
  server = await scriptedServer(() => step);
});
afterAll(() => server.close());

const cli = (args: string[]) =>
  spawnCli(args, {
    env: readyTokenEnv(server.url),
  });

const LISTS = [
  ['transactions', 'list'],
  ['transactions', 'list', '-o', 'ndjson'],
  ['credentials', 'list'],
  ['providers', 'list'],
  ['consents', 'list'],
  ['webhooks', 'list'],
  ['accounts', 'list'],
];

const LOGIN_PAGE =
  '<!doctype html><html><head><title>Sign in</title></head><body>\u001b[2JPlease sign in</body></html>';

describe('a 2xx answer that is not what the endpoint returns', () => {
  test.each(LISTS.map((a) => [a.join(' ')]))(
    '%s: an HTML login page is exit 7 naming status, type and first bytes',
    async (command) => {
      answer = { status: 200, type: 'text/html; charset=utf-8', body: LOGIN_PAGE };
      const r = await cli(['-o', 'json', ...command.split(' ')]);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/answered 200 \(text\/html; charset=utf-8\)/);
      expect(r.stderr).toContain('<!doctype html><html><head><title>Sign in');
      // the first bytes are shown, their escape sequences are not sent
      expect(r.stderr).not.toContain('\u001b[2J');
    },
  );

  test.each([
    ['truncated JSON', 'application/json', '{"transactions":[{"id":"a","accountId":"b","amount":{"value":'],
    ['malformed JSON', 'application/json', '{"credentials": [}'],
    ['a wrong content type', 'text/plain', '{"providers":[]}'],
    ['an empty body', 'application/json', ''],
  ])('%s is exit 7 for every list', async (_what, type, body) => {
    answer = { status: 200, type, body };
    for (const args of LISTS) {
      const r = await cli(['-o', 'json', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`answered 200 (${type})`);
    }
  });

  test('a JSON page without its transactions list is exit 7, not an empty list', async () => {
    answer = { status: 200, type: 'application/json', body: '{"nextPageToken":""}' };
    const r = await cli(['transactions', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('no transactions list');
  });
});

describe('a create answered without the id of what it created', () => {
  test.each([
    ['users create --market SE --use', 'user_id', '{"foo":1}'],
    ['users create --market SE', 'user_id', '{"user_id":null}'],
    ['credentials create --provider se-test-password --field username=u', 'id', '{"id":""}'],
    [
      'transfers create --user u --source se://83279234947790 --destination se://33001984 --amount 1.50 --currency SEK',
      'id',
      '{"status":"CREATED"}',
    ],
    ['webhooks endpoints create --url https://hooks.example.com/in --event refresh:finished', 'id', '{}'],
    ['webhooks create --url https://hooks.example.com/in --event credentials:update', 'id', '{"id":7}'],
    ['balance-refresh create --account a1', 'balanceRefreshId', '{}'],
    ['reports create', 'id', '{"accountIds":[]}'],
    [
      'consents v2 create --provider uk-ob-barclays --for-user u1 --currency GBP --max-amount 100 --limit MONTH=500 --payee-name Savings --payee-number 10000031510604',
      'id',
      '{}',
    ],
    [
      'consents v2 create --provider uk-ob-barclays --for-user u1 --currency GBP --max-amount 100 --limit MONTH=500 --payee-name Savings --payee-number 10000031510604',
      'id',
      '{"consent":{"state":"CREATED"}}',
    ],
    ['consents v2 authorize c1', 'id', '{"authorization":{"state":"AWAITING_INPUT"}}'],
    [
      'budgets create-one-off --name Trip --amount 100 --currency SEK --start 2026-06-01 --end 2026-06-30',
      'id',
      '{"budgetSpecification":{"name":"Trip"}}',
    ],
    ['budgets create-recurring --name Food --amount 100 --currency SEK', 'id', '{"budgetSpecification":{"id":""}}'],
    ['connector token --user alice --scope transactions:read', 'token', '{"expiry":1}'],
  ])('%s: exit 7 naming %s, not exit 0 with a null id', async (command, key, body) => {
    answer = { status: 200, type: 'application/json', body };
    const dir = tempDir();
    const r = await spawnCli(['-o', 'json', ...command.split(' ')], {
      env: {
        BANKCTL_CONFIG_DIR: dir,
        BANKCTL_BASE_URL: server.url,
        BANKCTL_TOKEN: 'ready-token',
        BANKCTL_RETRIES: '0',
        BANKCTL_WEBHOOK_SECRET: 'a-webhook-secret-of-some-length',
        BANKCTL_CONNECTOR_TOKEN: 'a-connector-token',
      },
    });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`with no ${key} for what it created`);
    expect(r.stderr).not.toContain('now acts as user');
  });
});

describe('a body cut short on the wire is a network failure (exit 8), not bad JSON (exit 7)', () => {
  const whole = '{"providers":[{"name":"se-test-password","displayName":"Test Password"}]}';
  test.each([
    ['before its Content-Length, the connection reset', 'length', 'reset'],
    ['before its Content-Length, the connection closed', 'length', 'close'],
    ['before its last chunk, the connection closed', 'chunked', 'close'],
  ])('%s: exit 8', async (_what, framing, end) => {
    const s = await scriptedServer(() => (_req, res) => {
      res.writeHead(
        200,
        framing === 'length'
          ? { 'content-type': 'application/json', 'content-length': String(whole.length) }
          : { 'content-type': 'application/json' },
      );
      res.write(whole.slice(0, 30));
      setTimeout(() => (end === 'reset' ? res.socket!.destroy() : res.socket!.end()), 50);
    });
    try {
      const r = await spawnCli(['providers', 'list', '--market', 'SE', '-o', 'json'], { env: readyTokenEnv(s.url) });
      expect(r.code, r.stderr).toBe(8);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toContain('malformed JSON');
    } finally {
      await s.close();
    }
  });

  test('a body that arrived whole (no Content-Length, the connection closed at its end) but is cut-short JSON: exit 7', async () => {
    const s = await scriptedServer(() => (req) => {
      // HTTP/1.0 style: the body is what comes until the server closes, so nothing is missing on the wire
      req.socket.end(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${whole.slice(0, 30)}`,
      );
    });
    try {
      const r = await spawnCli(['providers', 'list', '--market', 'SE', '-o', 'json'], { env: readyTokenEnv(s.url) });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('answered 200 (application/json) with malformed JSON');
    } finally {
      await s.close();
    }
  });
});

describe('consents update-link answered without a code', () => {
  test('exit 7 naming the code, never a link with authorization_code=undefined and exit 0', async () => {
    const s = await scriptedServer(() => (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // the user holds the credentials; the delegated grant answers without its code
      res.end(
        req.url!.startsWith('/api/v1/provider-consents') ? '{"providerConsents":[{"credentialsId":"c1"}]}' : '{}',
      );
    });
    try {
      const r = await spawnCli(['consents', 'update-link', 'c1', '--user', 'u1'], {
        env: { ...readyTokenEnv(s.url), BANKCTL_CLIENT_ID: 'client-id' },
      });
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('/api/v1/oauth/authorization-grant/delegate answered 200');
      expect(r.stderr).toContain('with no code for what it created');
    } finally {
      await s.close();
    }
  });
});

describe('numbers keep their digits in every format', () => {
  // numbers a double cannot give back: 20 digits, beyond a double's range, a trailing zero
  const body =
    '{"accounts":[{"id":"a1","name":"Big","type":"CHECKING","balance":12345678901234567891,"ownership":1.10},' +
    '{"id":"a2","name":"Huge","type":"SAVINGS","balance":1e400,"ownership":1.1}]}';

  test('json and ndjson write the literal back, as a number', async () => {
    answer = { status: 200, type: 'application/json', body };
    const json = await cli(['accounts', 'list', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('"balance": 12345678901234567891,');
    expect(json.stdout).toContain('"balance": 1e400,');
    expect(json.stdout).toContain('"ownership": 1.10');
    const nd = await cli(['accounts', 'list', '-o', 'ndjson']);
    expect(nd.stdout).toContain('"balance":12345678901234567891,');
    expect(nd.stdout).toContain('"balance":1e400,');
  });

  test('csv and table show the digits, not a rounded or blank cell', async () => {
    answer = { status: 200, type: 'application/json', body };
    const csv = await cli(['accounts', 'list', '-o', 'csv', '--fields', 'id,balance,ownership']);
    expect(csv.code, csv.stderr).toBe(0);
    // --fields balance is the command's balance column: its digits as the table shows them, and its
    // currency column (none given here)
    expect(csv.stdout).toBe(
      `id,balance,currency,ownership\r\na1,12345678901234567891,,1.10\r\na2,1${'0'.repeat(400)},,1.1\r\n`,
    );
    const table = await cli(['accounts', 'list', '-o', 'table']);
    expect(table.stdout).toContain('12345678901234567891');
    expect(table.stdout).toContain('1' + '0'.repeat(400));
  });
});
