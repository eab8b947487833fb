import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/config/list.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, json, not, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();
const secret = 'very-secret-client-secret-0001';

describe('config list', () => {
  optionCases('config list', newCmdList, [
    { name: 'the current profile', args: [], options: { allProfiles: false } },
    { name: 'every profile', args: ['--all-profiles'], options: { allProfiles: true } },
  ]);
  cliCases('config list', () => env, [
    {
      name: 'the stored settings, secrets masked',
      before: async () => {
        await runCli(['config', 'set', 'base-url', 'https://api.example.com'], { env });
        await runCli(['config', 'set', 'client-secret', secret], { env });
        await runCli(['config', 'set', 'output', 'csv', '--profile', 'other'], { env });
      },
      args: ['-o', 'json'],
      code: 0,
      stdout: [
        json([
          { profile: 'default', key: 'base-url', value: 'https://api.example.com' },
          { profile: 'default', key: 'client-secret', value: 'very…(30 chars)' },
        ]),
        not(secret),
      ],
    },
    {
      name: '--all-profiles',
      args: ['--all-profiles', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out).map((r: { profile: string; key: string }) => `${r.profile}.${r.key}`)).toEqual([
          'default.base-url',
          'default.client-secret',
          'other.output',
        ]),
    },
    { name: 'a table', args: ['-o', 'table'], code: 0, stdout: ['PROFILE', 'https://api.example.com', not(secret)] },
    {
      name: 'a short secret: its length only (its first four characters would be most of it)',
      before: async () =>
        void (await runCli(['config', 'set', 'client-secret', 'abcdef', '--profile', 'short'], { env })),
      args: ['--profile', 'short', '-o', 'json'],
      code: 0,
      stdout: [json([{ profile: 'short', key: 'client-secret', value: '…(6 chars)' }]), not('abcd')],
    },
  ]);
});
