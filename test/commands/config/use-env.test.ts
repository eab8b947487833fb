// `config use` under a BANKCTL_PROFILE that names another profile: said, since that one stays in use.
import { describe, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';

describe('config use with BANKCTL_PROFILE set', () => {
  it('warns that the environment still picks its own profile', async () => {
    const dir = tempDir();
    for (const p of ['staging', 'prod'])
      expect(
        (await spawnCli(['config', 'set', 'output', 'json', '--profile', p], { env: { BANKCTL_CONFIG_DIR: dir } }))
          .code,
      ).toBe(0);
    const r = await spawnCli(['config', 'use', 'prod'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_PROFILE: 'staging' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('BANKCTL_PROFILE is set to "staging"');
    const same = await spawnCli(['config', 'use', 'prod'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_PROFILE: 'prod' },
    });
    expect(same.stderr).not.toContain('BANKCTL_PROFILE');
  });
});
