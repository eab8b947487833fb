import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { ConnectorTokens } from '../../src/sandbox/router.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const connectorGet = (token: string) => raw(t.sandbox.baseUrl, 'GET', '/connector/webhooks', { headers: { authorization: `Token ${token}` } });

describe('connector token renewal', () => {
  test('old and new are both valid during the grace period, then the old one answers 401', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    const r = await runCli(['sandbox', 'rotate-connector-token', '--grace', '30', '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const next = JSON.parse(r.stdout).token as string;
    expect(next).not.toBe(t.sandbox.connectorToken);
    expect((await connectorGet(t.sandbox.connectorToken)).status).toBe(200);
    expect((await connectorGet(next)).status).toBe(200);
    t.sandbox.clock.advance(31_000);
    expect((await connectorGet(t.sandbox.connectorToken)).status).toBe(401);
    expect((await connectorGet(next)).status).toBe(200);

    // a profile holding current and next: the CLI retries once with the next token and says so
    const env2 = { ...env, BANKCTL_CONNECTOR_TOKEN: t.sandbox.connectorToken };
    expect((await runCli(['config', 'set', 'connector-token-next', next], { env: env2 })).code).toBe(0);
    const call = await runCli(['api', 'GET', '/connector/webhooks'], { env: env2 });
    expect(call.code).toBe(0);
    expect(call.stderr).toMatch(/connector token was refused \(401\); retrying with the next connector token/);
    expect(call.stderr).not.toContain(next);
  });

  test('--save-next stores the new token in the profile', async () => {
    const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
    t.sandbox.store.area('connector-tokens', () => new ConnectorTokens()).add('fresh-connector-token-1234');
    const r = await runCli(['sandbox', 'rotate-connector-token', '--save-next', '-o', 'json'], { env: { ...env, BANKCTL_CONNECTOR_TOKEN: 'fresh-connector-token-1234' } });
    expect(r.code).toBe(0);
    const saved = await runCli(['config', 'get', 'connector-token-next'], { env });
    expect(saved.stdout.trim()).toBe(JSON.parse(r.stdout).token);
  });
});
