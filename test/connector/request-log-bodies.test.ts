// The sandbox's request log with bodies (`sandbox start --bodies`) on the connector: the connector
// token a rotation retires is not written there, and amounts keep the digits they were sent with.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ bodies: true });
});
afterAll(() => t.close());

describe('sandbox logs --bodies on connector calls', () => {
  test('rotate-connector-token: the retired token is not in the log', async () => {
    const old = t.sandbox.connectorToken;
    const r = await spawnCli(['sandbox', 'rotate-connector-token', '--grace', '60', '-o', 'json'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    const next = JSON.parse(r.stdout).token as string;
    const logs = await spawnCli(['sandbox', 'logs', '-o', 'json'], {
      env: { ...t.env, BANKCTL_CONNECTOR_TOKEN: next },
    });
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toContain('/sandbox/connector-tokens');
    expect(logs.stdout).not.toContain(old);
    expect(logs.stdout).not.toContain(next);
  });

  test('accounts push: the balance is logged with its own digits', async () => {
    const env = { ...t.env, BANKCTL_CONNECTOR_TOKEN: t.sandbox.connectorToken };
    const u = await spawnCli(
      ['connector', 'users', 'create', '--external-id', 'logged', '--user-token-stdin', '--market', 'SE'],
      { env, stdin: 'user-tok-1\n' },
    );
    expect(u.code, u.stderr).toBe(0);
    const data =
      '{"accounts":[{"externalId":"a","name":"A","number":"1","balance":12345678901234567.891,"reservedAmount":1.10,"type":"SAVINGS"}]}';
    const p = await spawnCli(['connector', 'accounts', 'push', '--user', 'logged', '--data', data], { env });
    expect(p.code, p.stderr).toBe(0);
    const logs = await spawnCli(['sandbox', 'logs', '--path', '/connector/users/logged/accounts', '-o', 'json'], {
      env,
    });
    expect(logs.code, logs.stderr).toBe(0);
    const [entry] = JSON.parse(logs.stdout) as Array<{ requestBody: string }>;
    expect(entry!.requestBody).toContain('"balance":12345678901234567.891');
    expect(entry!.requestBody).toContain('"reservedAmount":1.10');
    expect(logs.stdout).not.toContain('user-tok-1');
  });
});
