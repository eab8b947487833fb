import { describe, expect } from 'vitest';
import { newCmdExplain } from '../../../src/commands/config/explain.js';
import { cliCases, not, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();
const find = (out: string, key: string) => JSON.parse(out).find((r: { key: string }) => r.key === key);

describe('config explain', () => {
  optionCases('config explain', newCmdExplain, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('config explain', () => env, [
    {
      name: 'each setting and its source: flag, env, default; secrets masked',
      args: ['--timeout', '12', '-o', 'json'],
      env: { BANKCTL_BASE_URL: 'https://env.example.com', BANKCTL_CLIENT_SECRET: 'abcd-secret-from-env' },
      code: 0,
      stdout: [
        (out) =>
          expect(find(out, 'base-url')).toEqual({
            key: 'base-url',
            value: 'https://env.example.com',
            source: 'env BANKCTL_BASE_URL',
          }),
        (out) => expect(find(out, 'timeout')).toMatchObject({ value: '12', source: 'flag' }),
        (out) => expect(find(out, 'client-secret').value).toBe('abcd…(20 chars)'),
        (out) => expect(find(out, 'profile')).toEqual({ key: 'profile', value: 'default', source: 'config' }),
        not('abcd-secret-from-env'),
      ],
    },
    {
      name: 'the profile from BANKCTL_PROFILE',
      args: ['-o', 'json'],
      env: { BANKCTL_PROFILE: 'ci' },
      code: 0,
      stdout: (out) =>
        expect(find(out, 'profile')).toEqual({ key: 'profile', value: 'ci', source: 'env BANKCTL_PROFILE' }),
    },
  ]);
});
