import { describe, expect } from 'vitest';
import { newCmdCreate } from '../../../../src/commands/connector/webhooks/create.js';
import { cliCases, not, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();
const url = ['--url', 'https://hooks.example.com/in'];

describe('connector webhooks create: flags', () => {
  optionCases('connector webhooks create', newCmdCreate, [
    {
      name: 'events repeated and comma-separated, the secret from stdin',
      args: [
        ...url,
        '--event',
        'transaction:create,transaction:update',
        '--event',
        'credentials:update',
        '--secret-stdin',
      ],
      stdin: 's3cret\n',
      options: {
        url: 'https://hooks.example.com/in',
        secret: 's3cret',
        events: ['transaction:create', 'transaction:update', 'credentials:update'],
      },
      stderr: not('warning'),
    },
    {
      name: 'the secret from the environment',
      args: [...url, '--event', 'credentials:update'],
      env: { BANKCTL_WEBHOOK_SECRET: 'from-env' },
      options: { secret: 'from-env' },
    },
    {
      name: '--secret warns',
      args: [...url, '--event', 'credentials:update', '--secret', 'x'],
      options: { secret: 'x' },
      stderr: 'warning: --secret on the command line is visible',
    },
    { name: 'no event', args: [...url, '--secret-stdin'], stdin: 's\n', code: 2, stderr: '--event is required' },
    {
      name: 'an unknown event',
      args: [...url, '--event', 'credentials:delete'],
      code: 2,
      stderr: 'unknown event "credentials:delete"',
    },
    { name: 'no secret', args: [...url, '--event', 'credentials:update'], code: 2, stderr: 'a secret is required' },
    {
      name: 'not an http URL',
      args: ['--url', 'ftp://x', '--event', 'credentials:update'],
      code: 2,
      stderr: '--url must be an https URL',
    },
  ]);
});

describe('connector webhooks create: output', () => {
  cliCases('connector webhooks create', () => sb.t.env, [
    {
      name: 'registered; json as returned',
      args: [...url, '--event', 'transaction:create', '--secret-stdin', '-o', 'json'],
      stdin: 'hook-secret\n',
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({ url: 'https://hooks.example.com/in', events: ['transaction:create'] }),
      stderr: /registered webhook \S+ for transaction:create/,
    },
  ]);
});
