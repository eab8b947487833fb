import { describe } from 'vitest';
import { newCmdGet } from '../../../src/commands/config/get.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();

describe('config get', () => {
  optionCases('config get', newCmdGet, [
    { name: 'a known key', args: ['base-url'], options: { key: 'base-url' } },
    { name: 'an unknown key', args: ['colour'], code: 2, stderr: ['unknown setting "colour"', 'keys: base-url'] },
    {
      name: '--fields: a usage error, the bare value has none',
      args: ['base-url', '--fields', 'value'],
      code: 2,
      stderr: '--fields does not apply to `bankctl config get`: its output is the bare stored value',
    },
  ]);
  cliCases('config get', () => env, [
    {
      name: 'the bare value, for scripts (secrets too)',
      before: async () => void (await runCli(['config', 'set', 'client-secret', 's3cr3t-value'], { env })),
      args: ['client-secret'],
      code: 0,
      stdout: /^s3cr3t-value\n$/,
    },
    {
      name: 'a key that is not set: where the value in effect is shown',
      args: ['user'],
      code: 2,
      stderr: ['"user" is not set in profile "default"', '`bankctl config explain`'],
    },
    { name: 'another profile', args: ['client-secret', '--profile', 'prod'], code: 2, stderr: 'profile "prod"' },
  ]);
});
