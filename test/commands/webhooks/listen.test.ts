import { describe, expect, test } from 'vitest';
import { newCmdListen } from '../../../src/commands/webhooks/listen.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { ConfigStore } from '../../../src/config/store.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { post, spawnListener } from '../../webhooks/helpers.js';

const sb = useSandbox();

/** A config directory whose default profile holds webhook-secret. */
function savedSecretDir(): string {
  const dir = tempDir();
  new ConfigStore(dir).set('default', 'webhook-secret', 'saved-in-profile');
  return dir;
}
const SECRET = 'listen-cmd-secret';
const hook = (event: string) =>
  JSON.stringify({
    event,
    content: { id: 'c1', status: 'UPDATED' },
    webHook: { secret: SECRET, url: 'http://x/', events: [event] },
  });

describe('webhooks listen: flags', () => {
  optionCases('webhooks listen', newCmdListen, [
    {
      name: 'defaults: port 8080 on loopback, every event, no deadline',
      args: ['--secret-stdin'],
      stdin: `${SECRET}\n`,
      options: {
        port: 8080,
        host: '127.0.0.1',
        secret: SECRET,
        events: [],
        once: false,
        waitMs: undefined,
        register: false,
        registerVia: 'api',
        maxBody: 1024 * 1024,
        readTimeoutMs: 10_000,
      },
    },
    {
      name: '--timeout typed here is the listen deadline',
      args: ['--secret-stdin', '--timeout', '2'],
      stdin: 's\n',
      options: { waitMs: 2_000 },
    },
    {
      name: 'the secret from the environment',
      args: ['--once'],
      env: { BANKCTL_WEBHOOK_SECRET: 'env-secret' },
      options: { secret: 'env-secret', once: true },
    },
    {
      name: '--register without a secret makes one for the run',
      args: ['--register', '--register-via', 'connector'],
      options: {
        register: true,
        registerVia: 'connector',
        secret: expect.stringMatching(/^[\w-]{32}$/) as unknown as string,
      },
    },
    { name: 'no secret and no --register', args: [], code: 2, stderr: 'a secret is required' },
    {
      name: '--public-url without --register',
      args: ['--secret-stdin', '--public-url', 'https://x.example/'],
      stdin: 's\n',
      code: 2,
      stderr: '--public-url only makes sense with --register',
    },
    {
      name: 'Events v2: v2 names in --event, --tolerance; --register goes to events-v2 when every event is v2',
      args: ['--register', '--event', 'refresh:finished,account:created', '--tolerance', '60'],
      options: { events: ['refresh:finished', 'account:created'], registerVia: 'events-v2', toleranceSeconds: 60 },
    },
    {
      name: 'the tolerance defaults to 300 s',
      args: ['--secret-stdin'],
      stdin: 's\n',
      options: { toleranceSeconds: 300 },
    },
    {
      name: 'the secret saved in the profile (webhook-secret) when no other is given',
      args: [],
      env: { BANKCTL_CONFIG_DIR: savedSecretDir() },
      options: { secret: 'saved-in-profile' },
    },
    {
      name: 'no secret anywhere: the hint names the profile setting',
      args: [],
      env: { BANKCTL_CONFIG_DIR: tempDir() },
      code: 2,
      stderr: /webhook-secret/,
    },
    {
      name: '--register with v1 and v2 events mixed is refused',
      args: ['--register', '--event', 'refresh:finished', '--event', 'credentials:update'],
      code: 2,
      stderr: /refresh:finished is Events v2/,
    },
    {
      name: 'a --tolerance that is not a number',
      args: ['--secret-stdin', '--tolerance', 'lots'],
      stdin: 's\n',
      code: 2,
      stderr: /--tolerance must be a positive number of seconds/,
    },
    {
      name: 'an unknown --register-via',
      args: ['--register', '--register-via', 'email'],
      code: 2,
      stderr: '--register-via must be one of api, connector, events-v2, got "email"',
    },
    {
      name: 'a deadline that is not a number',
      args: ['--secret-stdin', '--wait-timeout', 'soon'],
      stdin: 's\n',
      code: 2,
      stderr: '--wait-timeout must be a positive number of seconds',
    },
    {
      name: 'an unknown event',
      args: ['--secret-stdin', '--event', 'credentials:delete'],
      stdin: 's\n',
      code: 2,
      stderr: 'unknown event "credentials:delete"',
    },
    {
      name: '--forward-to that is not http',
      args: ['--secret-stdin', '--forward-to', 'file:///tmp/x'],
      stdin: 's\n',
      code: 2,
      stderr: '--forward-to must be an http(s) URL',
    },
  ]);
});

describe('webhooks listen: output', () => {
  cliCases('webhooks listen', () => sb.t.env, [
    {
      name: 'nothing within the deadline is 9',
      args: ['--port', '0', '--secret-stdin', '--wait-timeout', '0.2', '--event', 'transaction:update'],
      stdin: `${SECRET}\n`,
      code: 9,
      stderr: 'no transaction:update event came within 0.2 s',
    },
    {
      name: 'a listener reachable from other machines is warned about',
      args: ['--port', '0', '--host', '0.0.0.0', '--secret-stdin', '--wait-timeout', '0.1'],
      stdin: `${SECRET}\n`,
      code: 9,
      stderr: 'warning: listening on 0.0.0.0: other machines can reach this receiver',
    },
  ]);
});

// issue 16: a listener stopped with Ctrl-C exits 130, as the contract says for an interrupted command
describe('webhooks listen: Ctrl-C (spawned)', () => {
  test('SIGINT after events: the events printed, exit 130', async () => {
    const l = await spawnListener(['--secret', SECRET], sb.t.env);
    expect((await post(l.url, hook('credentials:update'))).status).toBe(200);
    await l.waitForStdoutLines(1);
    l.kill('SIGINT');
    expect(await l.exited).toBe(130);
    expect(l.events()).toEqual([expect.objectContaining({ event: 'credentials:update' })]);
    expect(l.stderr()).toMatch(/stopped listening after 1 event\(s\)/);
    expect(l.stderr()).not.toMatch(/unexpected|\n\s+at /);
  });

  test('SIGINT with --register: the registration is removed first, then 130', async () => {
    const l = await spawnListener(['--register', '--event', 'credentials:create'], sb.t.env);
    expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: sb.t.env })).stdout)).toHaveLength(1);
    l.kill('SIGINT');
    expect(await l.exited).toBe(130);
    expect(l.stderr()).toMatch(/removed webhook/);
    expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: sb.t.env })).stdout)).toEqual([]);
  });
});
