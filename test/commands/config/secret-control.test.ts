// `config set` of a secret key with a control character in the value: refused (exit 2) as any
// value is, without the secret in the message (it was quoted whole).
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';

describe('config set: a secret with a control character', () => {
  test.each([
    ['connector-token', 'SEKRET-ct\r'],
    ['connector-token-next', 'SEKRET-next\r'],
    ['client-secret', 'SEKRET\u0001cs'],
    ['token', 'SEKRET\ttok'],
  ])('%s: exit 2, not shown', async (key, value) => {
    const r = await spawnCli(['config', 'set', key, value], { env: { BANKCTL_CONFIG_DIR: tempDir() } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('(not shown: a secret)');
    expect(r.stderr).not.toContain('SEKRET');
  });

  test('a setting that is no secret is still quoted', async () => {
    const r = await spawnCli(['config', 'set', 'base-url', 'http://x\r'], { env: { BANKCTL_CONFIG_DIR: tempDir() } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('"http://x\\r" ends in a carriage return');
  });
});
