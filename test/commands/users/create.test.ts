import { describe, expect } from 'vitest';
import { newCmdCreate } from '../../../src/commands/users/create.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();
let created = '';

describe('users create: flags', () => {
  optionCases('users create', newCmdCreate, [
    {
      name: "the market's own locale by default",
      args: ['--market', 'se'],
      options: { market: 'SE', locale: 'sv_SE', use: false },
    },
    {
      name: 'an external id and --use',
      args: ['--market', 'GB', '--external-id', 'alice', '--use'],
      options: { externalId: 'alice', use: true },
    },
    { name: 'an unknown market', args: ['--market', 'XX'], code: 2, stderr: ['unknown market "XX"', 'one of'] },
    {
      name: 'an unsupported locale',
      args: ['--market', 'SE', '--locale', 'xx_XX'],
      code: 2,
      stderr: 'unsupported locale "xx_XX"',
    },
    {
      name: '--market is required',
      args: [],
      code: 2,
      stderr: 'error: --market is required (market, ISO 3166-1 (AT, ',
    },
  ]);
});

describe('users create: output', () => {
  cliCases('users create', () => sb.env, [
    {
      name: 'the new user id as JSON',
      args: ['--market', 'SE', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).user_id).toMatch(/^[0-9a-f]{32}$/),
    },
    {
      name: "--use makes it the profile's user",
      args: ['--market', 'SE', '--use', '-o', 'json'],
      code: 0,
      stdout: (out) => void (created = JSON.parse(out).user_id),
      stderr: /profile "default" now acts as user [0-9a-f]{32}/,
      after: async () => {
        const r = await runCli(['config', 'get', 'user'], { env: sb.env });
        expect(r.stdout.trim()).toBe(created);
      },
    },
    {
      name: 'an external id taken already is 5',
      before: async () =>
        void (await runCli(['users', 'create', '--market', 'SE', '--external-id', 'dup'], { env: sb.env })),
      args: ['--market', 'SE', '--external-id', 'dup'],
      code: 5,
    },
    {
      name: 'wrong client credentials are 3',
      args: ['--market', 'SE'],
      env: { BANKCTL_CLIENT_SECRET: 'wrong' },
      code: 3,
    },
  ]);
});
