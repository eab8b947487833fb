import { describe, expect, test } from 'vitest';
import { newCmdUpdate } from '../../../src/commands/credentials/update.js';
import { spawnCli } from '../../helpers/cli.js';
import { cliCases, connectTestBank, not, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';
const FAST = ['--poll-interval', '20', '--wait-timeout', '20'];

describe('credentials update: flags', () => {
  optionCases('credentials update', newCmdUpdate, [
    {
      name: 'a field',
      args: ['c1', '--field', 'username=u2'],
      options: { id: 'c1', fields: { username: 'u2' }, walk: undefined },
    },
    {
      name: '--field-stdin',
      args: ['c1', '--field-stdin', 'password'],
      stdin: 'new-pw\n',
      options: { fields: { password: 'new-pw' } },
    },
    {
      name: '--wait brings the walk options',
      args: ['c1', '--app-uri', 'https://x.example/', '--wait', ...FAST],
      options: { appUri: 'https://x.example/', walk: expect.objectContaining({ id: 'c1', pollMs: 20 }) },
    },
    {
      name: 'nothing to change',
      args: ['c1'],
      code: 2,
      stderr: 'nothing to change: give --field name=value, --answers FILE, or --app-uri',
    },
  ]);
});

describe('credentials update: output', () => {
  cliCases('credentials update', () => sb.env, [
    {
      name: 'a wrong password through stdin: the walk ends in AUTHENTICATION_ERROR (9)',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: () => [id, '--field-stdin', 'password', '--wait', ...FAST],
      stdin: 'wrong\n',
      code: 9,
      stderr: [/AUTHENTICATION_ERROR/, not('warning')],
    },
    {
      name: 'the right one: UPDATED',
      args: () => [id, '--field-stdin', 'password', '--wait', ...FAST, '-o', 'json'],
      stdin: 'test-password\n',
      code: 0,
      stdout: (out) => expect(JSON.parse(out).status).toBe('UPDATED'),
    },
    { name: 'unknown credentials are 4', args: ['f'.repeat(32), '--field', 'username=x'], code: 4 },
  ]);

  // issue 16: the warning through the spawned CLI
  test('--field password=... on the command line warns (spawned)', async () => {
    const r = await spawnCli(['credentials', 'update', id, '--field', 'password=test-password'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: --field password on the command line is visible to other users in the process list; use --field-stdin password instead',
    );
  });
});
