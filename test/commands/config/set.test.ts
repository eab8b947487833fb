import { describe } from 'vitest';
import { newCmdSet } from '../../../src/commands/config/set.js';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, not, optionCases } from '../../helpers/commands.js';
import { freshConfig } from './shared.js';

const env = freshConfig();
const files = tempDir();
const notPem = join(files, 'ca.txt');
writeFileSync(notPem, 'not a certificate\n');
const pem = join(files, 'ca.pem');
writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');

describe('config set', () => {
  optionCases('config set', newCmdSet, [
    {
      name: 'a URL',
      args: ['base-url', 'https://api.example.com'],
      options: { key: 'base-url', value: 'https://api.example.com' },
    },
    { name: 'not a URL', args: ['base-url', 'api.example.com'], code: 2, stderr: 'base-url must be an http(s) URL' },
    {
      name: 'an unknown output format',
      args: ['output', 'yaml'],
      code: 2,
      stderr: 'output must be one of table, json, ndjson, csv, got "yaml"',
    },
    {
      name: 'a timeout that is not a number',
      args: ['timeout', 'soon'],
      code: 2,
      stderr: 'timeout must be a number of seconds from 0.001 to 86400',
    },
    { name: 'an unknown key', args: ['colour', 'red'], code: 2, stderr: 'unknown setting "colour"' },
    // these were saved, and then every command of the profile refused them
    {
      name: 'a pin that is not a SHA-256',
      args: ['pin', 'abc'],
      code: 2,
      stderr: 'pin "abc" is not a base64 SHA-256 (44 characters, ending in "=")',
    },
    { name: 'basic without USER_ID:', args: ['basic', 'no-colon'], code: 2, stderr: 'basic must be USER_ID:TOKEN' },
    {
      name: 'a CA file that is not there',
      args: ['ca-file', '/nonexistent/ca.pem'],
      code: 2,
      stderr: 'the CA file /nonexistent/ca.pem cannot be read: no such file or directory',
    },
    {
      name: 'a CA file that holds no certificate',
      args: ['ca-file', notPem],
      code: 2,
      stderr: `the CA file ${notPem} holds no PEM certificate`,
    },
    {
      // kept relative, it was looked up in whatever directory a later command ran from
      name: 'a CA file given relative to here is stored as an absolute path',
      args: ['ca-file', relative(process.cwd(), pem)],
      options: { key: 'ca-file', value: pem },
    },
    {
      name: 'a secret on the command line is warned about',
      args: ['client-secret', 'x'],
      options: { key: 'client-secret' },
      stderr: 'warning: the value of client-secret given on the command line is visible in the process list',
    },
    {
      // before, "-" was stored as the secret (and the service refused it later with 401)
      name: 'a value of - is the first line of standard input, with no argv warning',
      args: ['client-secret', '-'],
      stdin: 's3cret-from-stdin\nnot this\n',
      options: { key: 'client-secret', value: 's3cret-from-stdin' },
      stderr: not('warning'),
    },
    {
      name: '- with nothing on standard input is exit 2',
      args: ['connector-token', '-'],
      stdin: '',
      code: 2,
      stderr: 'config set connector-token -: nothing was read from standard input',
    },
    {
      name: '- for a setting that is checked: the value read is checked',
      args: ['timeout', '-'],
      stdin: 'soon\n',
      code: 2,
      stderr: 'timeout must be a number of seconds from 0.001 to 86400',
    },
  ]);
  cliCases('config set', () => env, [
    {
      name: 'stored in the profile and read back',
      args: ['output', 'ndjson', '--profile', 'p1'],
      code: 0,
      stderr: ['output set in profile "p1"', not('warning')],
      after: async () => {
        const r = await runCli(['config', 'get', 'output', '--profile', 'p1'], { env });
        if (r.stdout !== 'ndjson\n') throw new Error(`read back ${JSON.stringify(r.stdout)}`);
      },
    },
    {
      name: 'a secret from standard input is stored, and only it',
      args: ['connector-token', '-', '--profile', 'p2'],
      stdin: 'tok-from-stdin\n',
      code: 0,
      stderr: ['connector-token set in profile "p2"', not('warning')],
      after: async () => {
        const r = await runCli(['config', 'get', 'connector-token', '--profile', 'p2'], { env });
        if (r.stdout !== 'tok-from-stdin\n') throw new Error(`read back ${JSON.stringify(r.stdout)}`);
      },
    },
  ]);
});
