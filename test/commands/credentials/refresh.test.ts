import { describe, expect } from 'vitest';
import { newCmdRefresh } from '../../../src/commands/credentials/refresh.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';
let previous = 0;
const FAST = ['--poll-interval', '20', '--wait-timeout', '20'];

describe('credentials refresh', () => {
  optionCases('credentials refresh', newCmdRefresh, [
    {
      name: 'items, opt-in',
      args: ['c1', '--items', 'checking_accounts', '--opt-in'],
      options: { id: 'c1', items: ['CHECKING_ACCOUNTS'], optIn: true, walk: undefined },
    },
    {
      name: '--wait',
      args: ['c1', '--wait', ...FAST],
      options: { walk: expect.objectContaining({ id: 'c1', pollMs: 20 }) },
    },
    {
      name: 'a bad --wait-timeout',
      args: ['c1', '--wait', '--wait-timeout', '0'],
      code: 2,
      stderr: '--wait-timeout must be a whole number of at least 1, got 0',
    },
  ]);
  cliCases('credentials refresh', () => sb.env, [
    {
      name: 'without --wait: started, and how to follow it',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: () => [id],
      code: 0,
      stderr: /refresh of [0-9a-f]{32} started; follow it with `bankctl credentials watch [0-9a-f]{32}`/,
    },
    {
      name: '--wait walks it to UPDATED',
      // one refresh at a time: the one started above first
      before: async () => {
        for (let i = 0; i < 200; i++) {
          const c = JSON.parse((await runCli(['credentials', 'get', id, '-o', 'json'], { env: sb.env })).stdout);
          if (c.status === 'UPDATED') return;
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      args: () => [id, '--wait', ...FAST, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).status).toBe('UPDATED'),
    },
    {
      // before, the walk took the previous round's UPDATED for its answer, at once, mid-refresh
      name: "--wait from UPDATED answers with this refresh's UPDATED, not the previous one",
      before: async () => {
        const c = JSON.parse((await runCli(['credentials', 'get', id, '-o', 'json'], { env: sb.env })).stdout);
        previous = c.statusUpdated;
      },
      args: () => [id, '--wait', ...FAST, '-o', 'json'],
      code: 0,
      stdout: (out) => {
        expect(JSON.parse(out).status).toBe('UPDATED');
        expect(JSON.parse(out).statusUpdated).toBeGreaterThan(previous);
      },
    },
    {
      // before, it failed at once with the previous round's TEMPORARY_ERROR (exit 9)
      name: '--wait from a previous TEMPORARY_ERROR walks the new round to UPDATED',
      before: async () => {
        const set = await runCli(['sandbox', 'credentials', 'set-status', id, 'TEMPORARY_ERROR', '-o', 'json'], {
          env: sb.env,
        });
        expect(set.code, set.stderr).toBe(0);
        previous = JSON.parse(set.stdout).statusUpdated;
      },
      args: () => [id, '--wait', ...FAST, '-o', 'json'],
      code: 0,
      stdout: (out) => {
        expect(JSON.parse(out).status).toBe('UPDATED');
        expect(JSON.parse(out).statusUpdated).toBeGreaterThan(previous);
      },
    },
    { name: 'unknown credentials are 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});
