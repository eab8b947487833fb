import { describe, expect } from 'vitest';
import { newCmdWatch } from '../../../src/commands/credentials/watch.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let id = '';

describe('credentials watch', () => {
  optionCases('credentials watch', newCmdWatch, [
    { name: 'defaults', args: ['c1'], options: { id: 'c1', timeoutMs: 300_000, pollMs: 500, until: undefined } },
    {
      name: '--until upper-cased',
      args: ['c1', '--until', 'updated', '--timeout', '5'],
      options: { until: 'UPDATED', timeoutMs: 5_000 },
    },
    {
      name: '--wait-timeout, as every other waiting verb names it',
      args: ['c1', '--wait-timeout', '7'],
      options: { timeoutMs: 7_000 },
    },
    {
      name: '--wait-timeout 0',
      args: ['c1', '--wait-timeout', '0'],
      code: 2,
      stderr: '--wait-timeout must be a whole number of at least 1, got 0',
    },
    {
      name: 'a poll interval over a minute',
      args: ['c1', '--poll-interval', '61000'],
      code: 2,
      stderr: '--poll-interval must be a whole number from 10 to 60000, got',
    },
  ]);
  cliCases('credentials watch', () => sb.env, [
    {
      name: 'on a table: one line per change, then a final status ends it',
      before: async () => void (id = await connectTestBank(sb.env)),
      args: () => [id, '-o', 'table'],
      code: 0,
      stdout: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z {2}UPDATED {2}Fetched 5 accounts\.\n$/,
    },
    {
      name: 'ndjson rows',
      args: () => [id, '-o', 'ndjson'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out.trim())).toMatchObject({ status: 'UPDATED', statusPayload: 'Fetched 5 accounts.' }),
    },
    {
      name: '--until a status not reached in time is 9',
      args: () => [id, '--until', 'AWAITING_MOBILE_EID_AUTHENTICATION', '--wait-timeout', '1', '--poll-interval', '50'],
      code: 9,
      stderr: (err) => {
        expect(err).toContain('did not reach AWAITING_MOBILE_EID_AUTHENTICATION within 1 s');
        // the final status it found is said at once, with the way to a new one
        expect(err).toContain("UPDATED is the last refresh's status; waiting for a new refresh");
        expect(err).toContain(`bankctl credentials refresh ${id}`);
      },
    },
    {
      name: 'unknown credentials are 4, with nothing on stdout (no empty list, no csv header)',
      args: ['f'.repeat(32), '-o', 'csv'],
      code: 4,
      stdout: (out) => expect(out).toBe(''),
    },
    {
      name: '--until a status that does not exist is 2 at once, not a wait for the timeout',
      args: ['f'.repeat(32), '--until', 'FOO'],
      code: 2,
      stderr: /--until must be one of CREATED, AUTHENTICATING, .*, got "FOO"/,
    },
  ]);
});
