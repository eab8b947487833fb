import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { newCmdCreate } from '../../../../src/commands/webhooks/endpoints/create.js';
import { cliCases, optionCases, useSandbox } from '../../../helpers/commands.js';

const sb = useSandbox();
const file = () => join(sb.t.configDir, 'config.json');
const profile = () => (existsSync(file()) ? JSON.parse(readFileSync(file(), 'utf8')).profiles?.default : undefined);

describe('webhooks endpoints create', () => {
  optionCases('webhooks endpoints create', newCmdCreate, [
    {
      name: 'url, events (repeated and comma-separated), description',
      args: [
        '--url',
        'https://hooks.example.com/t',
        '--event',
        'refresh:finished',
        '--event',
        'account:created,account-transactions:modified',
        '--description',
        'ledger',
      ],
      options: {
        url: 'https://hooks.example.com/t',
        events: ['refresh:finished', 'account:created', 'account-transactions:modified'],
        description: 'ledger',
        disabled: false,
        saveSecret: false,
      },
    },
    {
      name: '--save-secret and --disabled',
      args: ['--url', 'https://h.example/x', '--event', 'account:updated', '--save-secret', '--disabled'],
      options: { saveSecret: true, disabled: true },
    },
    { name: 'no --event', args: ['--url', 'https://h.example/x'], code: 2, stderr: /--event is required/ },
    {
      name: 'a v1 event name is refused',
      args: ['--url', 'https://h.example/x', '--event', 'credentials:update'],
      code: 2,
      // the hint points at where a v1 name is registered, as the v1 commands do for a v2 name
      stderr:
        /unknown event "credentials:update".*credentials:update is a v1 event: register it with `bankctl webhooks create`/,
    },
    { name: 'not a URL', args: ['--url', 'nope', '--event', 'refresh:finished'], code: 2, stderr: /not a URL/ },
    { name: 'no --url', args: ['--event', 'refresh:finished'], code: 2, stderr: /--url/ },
  ]);
  cliCases('webhooks endpoints create', () => sb.env, [
    {
      name: 'json: the endpoint with its secret, shown this once; not saved without --save-secret',
      args: ['--url', 'https://hooks.example.com/a', '--event', 'refresh:finished', '-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({
          url: 'https://hooks.example.com/a',
          enabledEvents: ['refresh:finished'],
          disabled: false,
          secret: expect.stringMatching(/^.{32,}$/),
        }),
      stderr: /secret is shown only now/,
      after: () => expect(profile()?.['webhook-secret']).toBeUndefined(),
    },
    {
      name: '--save-secret keeps it in the 0600 profile, where listen finds it',
      args: ['--url', 'https://hooks.example.com/b', '--event', 'account:created', '--save-secret', '-o', 'json'],
      code: 0,
      stderr: /saved in profile "default" \(webhook-secret\)/,
      after: (r) => {
        expect(profile()['webhook-secret']).toBe(JSON.parse(r.stdout).secret);
        expect(statSync(join(sb.t.configDir, 'config.json')).mode & 0o777).toBe(0o600);
      },
    },
    {
      name: 'table: the secret is on stdout too',
      args: ['--url', 'https://hooks.example.com/c', '--event', 'account:updated', '-o', 'table'],
      code: 0,
      stdout: [/secret/, /https:\/\/hooks\.example\.com\/c/],
    },
    {
      name: "the service's 409 for the same url and event is exit 5 with its message",
      args: ['--url', 'https://hooks.example.com/a', '--event', 'refresh:finished'],
      code: 5,
      stderr: /already exists/,
    },
    {
      name: "the guides' events of other products (insights, payments, reports) are taken by the CLI and the sandbox",
      args: [
        ...['--url', 'https://hooks.example.com/products', '--event', 'actionable-insights:created,payment:updated'],
        ...['--event', 'mandate-payment:updated,reports-generation:completed', '-o', 'json'],
      ],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out).enabledEvents).toEqual([
          'actionable-insights:created',
          'payment:updated',
          'mandate-payment:updated',
          'reports-generation:completed',
        ]),
    },
    {
      name: "the service's 400 (plain http to a public host) is exit 2",
      args: ['--url', 'http://hooks.example.com/a', '--event', 'refresh:finished'],
      code: 2,
      stderr: /https/,
    },
  ]);
});
