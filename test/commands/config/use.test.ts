import { describe } from 'vitest';
import { newCmdUse } from '../../../src/commands/config/use.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, json, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();

describe('config use', () => {
  optionCases('config use', newCmdUse, [
    { name: 'a profile name', args: ['prod'], options: { profile: 'prod' } },
    { name: 'a name with a slash', args: ['../etc'], code: 2, stderr: 'profile names use letters, digits' },
  ]);
  cliCases('config use', () => env, [
    {
      name: 'the profile becomes the current one',
      args: ['staging', '--create'],
      code: 0,
      stderr: 'now using profile "staging"',
      after: async () => {
        await runCli(['config', 'set', 'output', 'csv'], { env });
        const r = await runCli(['config', 'list', '-o', 'json'], { env });
        json([{ profile: 'staging', current: true, key: 'output', value: 'csv' }])(r.stdout);
      },
    },
  ]);
});
