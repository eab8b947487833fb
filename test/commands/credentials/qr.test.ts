import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { newCmdQr } from '../../../src/commands/credentials/qr.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

// long enough that the eID still waits on a loaded machine when the last read comes (3 s was not, in CI)
const sb = useSandbox({ user: true, sandbox: { authDelayMs: 60_000 } });
const dir = tempDir();
let id = '';
let updated = '';

describe('credentials qr', () => {
  optionCases('credentials qr', newCmdQr, [
    { name: 'a file', args: ['c1', '-O', 'qr.png'], options: { id: 'c1', out: 'qr.png' } },
    {
      name: '-O with --jq: a usage error, nothing to filter in a PNG',
      args: ['c1', '-O', 'qr.png', '--jq', '.dataUrl'],
      code: 2,
      stderr: '--jq does not apply with -O: the PNG image goes to the file',
    },
  ]);
  cliCases('credentials qr', () => sb.env, [
    {
      name: 'the data URL while the eID waits',
      before: async () => {
        const c = await runCli(
          [
            'credentials',
            'create',
            '--provider',
            'se-test-other-eid-successful',
            '--field',
            'username=test-user',
            '-o',
            'json',
          ],
          { env: sb.env },
        );
        id = JSON.parse(c.stdout).id;
        const w = await runCli(
          ['credentials', 'watch', id, '--until', 'AWAITING_MOBILE_EID_AUTHENTICATION', '--poll-interval', '10'],
          { env: sb.env },
        );
        expect(w.code, w.stderr).toBe(0);
      },
      args: () => [id],
      code: 0,
      stdout: /^data:image\/png;base64,[A-Za-z0-9+/=]+\n$/,
    },
    {
      // `-o json | jq` works for every command: an object, and --jq reads it
      name: '-o json: {credentialsId, dataUrl}',
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) => {
        const o = JSON.parse(out);
        expect(o.credentialsId).toBe(id);
        expect(o.dataUrl).toMatch(/^data:image\/png;base64,/);
      },
    },
    {
      name: '--jq .dataUrl: the data URL alone',
      args: () => [id, '--jq', '.dataUrl'],
      code: 0,
      stdout: /^data:image\/png;base64,[A-Za-z0-9+/=]+\n$/,
    },
    {
      name: '--fields credentialsId: that field, not the bare data URL',
      args: () => [id, '--fields', 'credentialsId'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual({ credentialsId: id }),
    },
    {
      name: '-O writes the PNG',
      args: () => [id, '-O', join(dir, 'qr.png')],
      code: 0,
      stderr: /wrote .*qr\.png/,
      after: () => expect(readFileSync(join(dir, 'qr.png')).subarray(1, 4).toString()).toBe('PNG'),
    },
    {
      name: 'credentials that wait for no eID have no QR code (4)',
      before: async () => void (updated = await connectTestBank(sb.env)),
      args: () => [updated],
      code: 4,
    },
  ]);
});
