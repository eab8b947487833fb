import { describe } from 'vitest';
import { newCmdUnset } from '../../../src/commands/config/unset.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, not, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();

describe('config unset', () => {
  optionCases('config unset', newCmdUnset, [
    { name: 'a known key', args: ['user'], options: { key: 'user' } },
    { name: 'an unknown key', args: ['colour'], code: 2, stderr: 'unknown setting "colour"' },
  ]);
  cliCases('config unset', () => env, [
    {
      name: 'removes the setting',
      before: async () => void (await runCli(['config', 'set', 'user', 'u-1'], { env })),
      args: ['user'],
      code: 0,
      stderr: 'user unset in profile "default"',
      after: async () => {
        const r = await runCli(['config', 'get', 'user'], { env });
        if (r.code !== 2) throw new Error(`user is still set: ${r.stdout}`);
      },
    },
    {
      // before: "user unset in profile" for a setting that was never there
      name: 'a setting that was not set: exit 0, saying so',
      args: ['timeout'],
      code: 0,
      stderr: ['timeout was not set in profile "default" (nothing to unset', not('timeout unset')],
    },
  ]);
});
