import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

describe('bankctl demo', () => {
  test('without a TTY it walks the whole journey with scripted answers and cleans up', async () => {
    const r = await spawnCli(['demo', '--auth-delay', '20', '--no-color'], {
      env: { BANKCTL_CONFIG_DIR: tempDir() },
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr).toBe(0);
    for (const step of [
      'Create an end user',
      'Connect a test bank',
      'The accounts the refresh brought in',
      'The latest transactions',
      'The consent behind them',
      'Push 40 transactions',
      'Read them back',
      'Delete the end user',
    ]) {
      expect(r.stderr).toContain(step);
    }
    expect(r.stderr).toMatch(/delivered 40, duplicates 0/);
    // what the steps printed: real data from the sandbox, amounts exact with currency
    expect(r.stdout).toMatch(/UPDATED/);
    expect(r.stdout).toMatch(/CHECKING/);
    expect(r.stdout).toMatch(/-?\d+\.\d{2} SEK/);
    expect(r.stderr).not.toMatch(/retrying|error:/);
    expect(r.stderr).not.toContain('demo-user-token-0001');
  }, 120_000);
});
