import { describe, expect } from 'vitest';
import { newCmdCreate } from '../../../src/commands/webhooks/create.js';
import { cliCases, not, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const url = ['--url', 'https://hooks.example.com/in'];

describe('webhooks create: flags', () => {
  optionCases('webhooks create', newCmdCreate, [
    {
      name: 'the secret from stdin',
      args: [...url, '--event', 'credentials:update', '--secret-stdin'],
      stdin: 'abc\n',
      options: { url: 'https://hooks.example.com/in', secret: 'abc', events: ['credentials:update'] },
    },
    {
      name: 'both secret flags',
      args: [...url, '--event', 'credentials:update', '--secret', 'a', '--secret-stdin'],
      stdin: 'b\n',
      code: 2,
      stderr: 'give --secret or --secret-stdin, not both',
    },
    {
      name: 'stdin asked twice',
      args: [...url, '--event', 'credentials:update', '--secret-stdin', '--client-secret-stdin'],
      stdin: 'x\n',
      code: 2,
    },
    {
      name: 'not a URL',
      args: ['--url', 'hooks', '--event', 'credentials:update'],
      code: 2,
      stderr: '--url: "hooks" is not a URL',
    },
  ]);
});

describe('webhooks create: output', () => {
  cliCases('webhooks create', () => sb.env, [
    {
      name: 'registered for the user; the table leaves the secret out',
      args: [...url, '--event', 'transaction:create', '--secret-stdin', '-o', 'table'],
      stdin: 'create-secret-2\n',
      code: 0,
      stdout: [(out) => expect(out).toContain(`user ${sb.userId}`), not('create-secret-2')],
      stderr: /registered webhook \S* ?for transaction:create/,
    },
    {
      name: 'json is as the service returned it',
      args: [...url, '--event', 'credentials:update', '--secret-stdin', '-o', 'json'],
      stdin: 'create-secret-3\n',
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({ url: 'https://hooks.example.com/in', events: ['credentials:update'] }),
    },
  ]);
});
