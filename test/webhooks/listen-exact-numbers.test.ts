// `webhooks listen` as a real process: a received event is printed with the digits its sender wrote
// (12345678901234567891, 1.10 and 1e400 stay that) in every output format, v1 and Events v2 alike,
// and --forward-to still passes the body on byte for byte.
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { signatureHeader } from '../../src/contract/webhook-signature.js';
import { post, spawnListener, startReceiver, stopListener as stop } from '../webhooks/helpers.js';

const SECRET = 'abc';
let env: Record<string, string>;

beforeAll(() => {
  env = { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_WEBHOOK_SECRET: SECRET };
});

// the reviewer's body, plus numbers a double cannot hold at all and a plain one
const CONTENT =
  '{"id":"z","amount":1.10,"big":12345678901234567891,"huge":1e400,"negZero":-0,"minor":-13.070,"plain":42}';
const BODY = `{"content":${CONTENT},"event":"transaction:create","webHook":{"secret":"${SECRET}"}}`;
const EXACT = [
  '"amount":1.10',
  '"big":12345678901234567891',
  '"huge":1e400',
  '"negZero":-0',
  '"minor":-13.070',
  '"plain":42',
];

describe('webhooks listen prints the numbers as sent', () => {
  test.each([
    ['-o json', ['-o', 'json']],
    ['-o ndjson', ['-o', 'ndjson']],
    ['-o csv', ['-o', 'csv']],
    ['no -o (stdout is not a terminal)', []],
  ])('%s: one JSON line with the digits as sent, the secret left out', async (_name, format) => {
    const args = ['--once', '--event', 'transaction:create', ...format];
    const l = await spawnListener(args, env);
    try {
      const res = await post(l.url, BODY);
      expect(res.status).toBe(200);
      expect(await l.exited).toBe(0);
      const lines = l.stdout().trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      for (const literal of EXACT) expect(line).toContain(literal);
      expect(line).not.toContain('12345678901234567000');
      expect(line).not.toContain('"amount":1.1,');
      expect(line).not.toContain('null');
      expect(line).toBe(`{"content":${CONTENT},"event":"transaction:create","webHook":{}}`);
    } finally {
      await stop(l);
    }
  });

  test('-o table (the pretty form): the content indented, digits as sent', async () => {
    const l = await spawnListener(['--once', '-o', 'table'], env);
    try {
      expect((await post(l.url, BODY)).status).toBe(200);
      expect(await l.exited).toBe(0);
      const out = l.stdout();
      expect(out).toMatch(/^--- \d{4}-\d\d-\d\dT[\d:.]+Z transaction:create\n/);
      for (const literal of EXACT) expect(out).toContain(literal.replace(':', ': '));
      expect(out).not.toContain('12345678901234567000');
    } finally {
      await stop(l);
    }
  });

  test('an Events v2 delivery (X-Tink-Signature) keeps its digits too', async () => {
    const l = await spawnListener(['--once', '--event', 'account-transactions:modified', '-o', 'json'], env);
    try {
      const body = `{"context":{"userId":"u1"},"content":${CONTENT},"event":"account-transactions:modified"}`;
      const res = await post(l.url, body, {
        'content-type': 'application/json',
        'x-tink-signature': signatureHeader(SECRET, body, Date.now()),
      });
      expect(res.status).toBe(200);
      expect(await l.exited).toBe(0);
      expect(l.stdout()).toBe(`${body}\n`);
    } finally {
      await stop(l);
    }
  });

  test('--forward-to passes the body on byte for byte, while stdout keeps the digits', async () => {
    const target = await startReceiver();
    const l = await spawnListener(['--once', '--forward-to', `${target.url}/in`], env);
    try {
      // odd spacing and a key order of its own: the forwarded body is not re-serialised
      const body = ` { "event" : "transaction:create", "webHook":{"secret":"${SECRET}"},\n"content" : ${CONTENT} }`;
      expect((await post(l.url, body)).status).toBe(200);
      const [got] = await target.waitFor(1);
      expect(got!.body).toBe(body);
      expect(await l.exited).toBe(0);
      for (const literal of EXACT) expect(l.stdout()).toContain(literal);
    } finally {
      await stop(l);
      await target.close();
    }
  });

  test('bodies that are numbers where an object belongs are still refused with 400, not printed', async () => {
    const l = await spawnListener([], env);
    try {
      const cases = [
        '1.10',
        '12345678901234567891',
        `{"content":1.10,"event":"transaction:create","webHook":{"secret":"${SECRET}"}}`,
        `{"content":{"id":"z"},"event":"transaction:create","webHook":1e400}`,
        `{"content":{"id":"z"},"event":1.10,"webHook":{"secret":"${SECRET}"}}`,
      ];
      for (const body of cases) {
        const res = await post(l.url, body);
        expect(res.status, body).toBe(400);
      }
      // a wrong secret is still 401, and the listener still takes a good event after all that
      const wrong = BODY.replace(`"secret":"${SECRET}"`, '"secret":"nope"');
      expect((await post(l.url, wrong)).status).toBe(401);
      expect((await post(l.url, BODY)).status).toBe(200);
      const lines = await l.waitForStdoutLines(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('"big":12345678901234567891');
      expect(l.stderr()).toMatch(/refused POST \/: 400 the body is not a JSON object/);
      expect(l.stderr()).toMatch(/refused POST \/: 400 content is missing or not an object/);
      expect(l.stderr()).toMatch(/refused POST \/: 400 webhook\.secret is missing/);
      expect(l.stderr()).toMatch(/refused POST \/: 400 event is missing or not a string/);
    } finally {
      expect(await stop(l)).toBe(130);
    }
  });
});
