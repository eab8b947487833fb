// `webhooks listen` with the output options every command takes: --jq filters each accepted event
// and --fields keeps those paths of it (as -o ndjson does elsewhere), numbers keep their digits, the
// secret stays out; a --jq that does not compile and --fields help are exit 2 before listening, and
// a jq error on an event is said and makes the run exit 2, not 0.
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { post, spawnListener, stopListener as stop } from './helpers.js';

const SECRET = 'out-opts-secret';
let env: Record<string, string>;

beforeAll(() => {
  env = { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_WEBHOOK_SECRET: SECRET };
});

const BODY = `{"event":"transaction:create","content":{"id":"t1","amount":{"value":{"unscaledValue":"12345678901234567891","scale":"2"}},"x":1.10},"webHook":{"secret":"${SECRET}","url":"u"}}`;

describe('webhooks listen --jq / --fields', () => {
  test('--jq filters each event; the digits are kept', async () => {
    const l = await spawnListener(['--once', '--jq', '.content | {id, x, amount: .amount.value.unscaledValue}'], env);
    try {
      expect((await post(l.url, BODY)).status).toBe(200);
      expect(await l.exited).toBe(0);
      expect(l.stdout()).toBe('{"id":"t1","x":1.10,"amount":"12345678901234567891"}\n');
    } finally {
      await stop(l);
    }
  });

  test('--fields keeps those paths of each event; the secret stays out', async () => {
    const l = await spawnListener(['--once', '--fields', 'event,content.id,webHook'], env);
    try {
      expect((await post(l.url, BODY)).status).toBe(200);
      expect(await l.exited).toBe(0);
      expect(JSON.parse(l.stdout())).toEqual({
        event: 'transaction:create',
        content: { id: 't1' },
        webHook: { url: 'u' },
      });
      expect(l.stdout()).not.toContain(SECRET);
    } finally {
      await stop(l);
    }
  });

  test('a jq error on an event is said on stderr and the run ends with exit 2', async () => {
    const l = await spawnListener(['--once', '--jq', '.content.x | error'], env);
    try {
      expect((await post(l.url, BODY)).status).toBe(200);
      expect(await l.exited).toBe(2);
      expect(l.stdout()).toBe('');
      expect(l.stderr()).toMatch(/transaction:create: --jq: .*not printed/);
      expect(l.stderr()).not.toContain(SECRET);
    } finally {
      await stop(l);
    }
  });

  test('a --jq that does not compile and --fields help are exit 2 before listening', async () => {
    const bad = await spawnCli(['webhooks', 'listen', '--port', '0', '--jq', '.['], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--jq: .*compile error/);
    expect(bad.stderr).not.toMatch(/listening on/);
    const help = await spawnCli(['webhooks', 'listen', '--port', '0', '--fields', 'help'], { env });
    expect(help.code).toBe(2);
    expect(help.stderr).toMatch(/--fields help/);
    expect(help.stderr).not.toMatch(/listening on/);
  });
});
