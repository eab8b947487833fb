import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/cli.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ faults: { rate: 0.3, seed: 7, retryAfterS: 0, slowMs: 40 } });
});
afterAll(() => t.close());

describe('fault injection', () => {
  test('every kind happens, and idempotent reads get through with retries', async () => {
    const c = new HttpClient({ baseUrl: t.sandbox.baseUrl, retry: { retries: 8, baseDelayMs: 1, maxDelayMs: 2 } });
    for (let i = 0; i < 120; i++) {
      const r = await c.request<{ version: string }>({ method: 'GET', path: '/version' });
      expect(r.data.version).toBeTruthy();
    }
    await c.close();
    expect(Object.keys(t.sandbox.faultCounts).sort()).toEqual(['429', '500', '503', 'reset', 'slow']);
  });

  test('the CLI survives transient faults on a read', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await spawnCli(['api', 'GET', '/version', '--as', 'none', '--retries', '8'], { env: t.env });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).version).toBeTruthy();
    }
  });

  test('sandbox start rejects a bad --fault-rate or kind', async () => {
    expect(
      (await spawnCli(['sandbox', 'start', '--fault-rate', '2'], { env: { BANKCTL_CONFIG_DIR: t.configDir } })).code,
    ).toBe(2);
    const bad = await spawnCli(['sandbox', 'start', '--fault-rate', '0.1', '--faults', '429,teapot'], {
      env: { BANKCTL_CONFIG_DIR: t.configDir },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown fault kind "teapot"/);
  });
});
