import { describe, expect } from 'vitest';
import { newCmdLogout } from '../../../src/commands/auth/logout.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, optionCases } from '../../helpers/commands.js';

const env = { BANKCTL_CONFIG_DIR: tempDir() };

describe('auth logout', () => {
  optionCases('auth logout', newCmdLogout, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('auth logout', () => env, [
    {
      name: 'forgets the credentials of the profile and keeps its other settings',
      before: async () => {
        for (const [k, v] of [
          ['client-id', 'id-1'],
          ['client-secret', 'secret-1'],
          ['connector-token', 'ct-1'],
          ['base-url', 'https://api.example.com'],
        ])
          await runCli(['config', 'set', k!, v!], { env });
      },
      args: [],
      code: 0,
      // each setting removed, by name (it said "(0 cached tokens removed)": as if nothing had gone)
      stderr: 'logged out of profile "default": removed its client-id, client-secret and connector-token\n',
      after: async () => {
        const left = JSON.parse((await runCli(['config', 'list', '-o', 'json'], { env })).stdout);
        expect(left.map((r: { key: string }) => r.key)).toEqual(['base-url']);
      },
    },
    {
      name: 'a second logout says nothing was there to remove',
      args: [],
      code: 0,
      stderr: 'logged out of profile "default": it stored no credentials or cached tokens, nothing removed\n',
    },
  ]);
});
