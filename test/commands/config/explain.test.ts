import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { newCmdExplain } from '../../../src/commands/config/explain.js';
import { cliCases, not, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();
const handEdited = freshConfig();
mkdirSync(handEdited.BANKCTL_CONFIG_DIR, { recursive: true, mode: 0o700 });
writeFileSync(
  join(handEdited.BANKCTL_CONFIG_DIR, 'config.json'),
  JSON.stringify({
    current: 'ci',
    profiles: { ci: { retries: 'many', protected: 'ture', 'base-url': 'api.example.com' } },
  }),
  { mode: 0o600 },
);
const notPem = join(handEdited.BANKCTL_CONFIG_DIR, 'ca.txt');
writeFileSync(notPem, 'not a certificate\n');
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
  // it showed BANKCTL_TIMEOUT=abc as a plain value, exit 0 and no word, while doctor failed on it
  cliCases('config explain', () => env, [
    {
      name: 'a setting no command can use is marked with the words doctor uses, and warned about',
      args: ['-o', 'json'],
      env: { BANKCTL_TIMEOUT: 'abc' },
      code: 0,
      stdout: [
        (out) =>
          expect(find(out, 'timeout')).toEqual({
            key: 'timeout',
            value: 'abc',
            source: 'env BANKCTL_TIMEOUT',
            problem: 'timeout must be a number of seconds from 0.001 to 86400, got "abc"',
          }),
        // the others are fine, and carry no mark
        (out) => expect(find(out, 'retries')).toEqual({ key: 'retries', value: '3', source: 'default' }),
      ],
      stderr: 'warning: timeout must be a number of seconds from 0.001 to 86400, got "abc" (from BANKCTL_TIMEOUT)',
    },
    {
      name: 'negative, from a flag, and the other checked settings: pin, max response size, CA file',
      args: ['-o', 'json', '--timeout', '-5', '--pin', 'abc', '--max-response-size', '12'],
      env: { BANKCTL_CA_FILE: join(handEdited.BANKCTL_CONFIG_DIR, 'missing.pem') },
      code: 0,
      stdout: [
        (out) => expect(find(out, 'timeout').problem).toMatch(/^timeout must be a number of seconds/),
        (out) => expect(find(out, 'pin').problem).toMatch(/^pin "abc" is not a base64 SHA-256/),
        (out) => expect(find(out, 'max-response-size').problem).toMatch(/^max-response-size must be a size from 1KiB/),
        (out) =>
          expect(find(out, 'ca-file').problem).toMatch(/^the CA file .*missing\.pem cannot be read: no such file/),
      ],
      stderr: [/\(from --timeout\)/, /\(from --pin\)/, /\(from --max-response-size\)/, /\(from BANKCTL_CA_FILE\)/],
    },
    {
      name: 'a CA file that holds no certificate',
      args: ['-o', 'json', '--ca-file', notPem],
      code: 0,
      stdout: (out) => expect(find(out, 'ca-file').problem).toBe(`the CA file ${notPem} holds no PEM certificate`),
    },
    {
      name: 'no problem: no problem column, nothing on stderr',
      args: ['-o', 'table', '--timeout', '7'],
      code: 0,
      stdout: [(out) => expect(out.split('\n')[0]).toMatch(/^KEY +VALUE +SOURCE$/), not('PROBLEM')],
      stderr: (err) => expect(err).toBe(''),
    },
  ]);
  cliCases('config explain', () => handEdited, [
    {
      name: 'values written into the profile by hand are judged the same',
      args: ['-o', 'table'],
      code: 0,
      stdout: [
        /^retries +many +profile ci +retries must be a whole number from 0 to 100, got "many"$/m,
        /^protected +ture +profile ci +protected must be true or false, got "ture" \(read as not protected\)$/m,
        /^base-url +api\.example\.com +profile ci +base-url must be an http\(s\) URL/m,
        /^timeout +30 +default *$/m,
      ],
      stderr: /warning: retries must be a whole number .*\(from profile ci\)/,
    },
  ]);
});
