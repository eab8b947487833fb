// The rough edges of the connect flows without a terminal: the supplement command named, credentials
// update from --answers, the 409 of a second attempt.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { connectTestBank, useSandbox } from '../helpers/commands.js';
import { conflictHint } from '../../src/commands/credentials/connect.js';

const s = useSandbox({ user: true });

describe('connect and update without a terminal', () => {
  test('a round it cannot answer names the credentials id and the exact supplement command', async () => {
    const r = await runCli(
      [
        'credentials',
        'connect',
        '--provider',
        'se-test-other-multi-supplemental',
        '--field',
        'username=test-user',
        '--poll-interval',
        '20',
      ],
      { env: s.env },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /credentials ([0-9a-f]{32}) wait for it: `bankctl credentials supplement \1 --answer \w+=VALUE/,
    );
  }, 30_000);

  test('an optional field of a round it cannot answer is named beside the supplement command, not in it: it may be left out', async () => {
    const r = await runCli(
      [
        'credentials',
        'connect',
        '--provider',
        'se-test-multi-supplemental',
        '--field',
        'username=test-user',
        '--answer',
        'code1=1234',
        '--poll-interval',
        '20',
      ],
      { env: s.env },
    );
    expect(r.code).toBe(2);
    // round 2: the masked code2, and deviceName, which the bank marks optional
    expect(r.stderr).toMatch(
      /`bankctl credentials supplement [0-9a-f]{32} --answer code2=VALUE` \(optional: --answer deviceName=VALUE; or --answers FILE\)/,
    );
  }, 30_000);

  test('credentials update reads the fields from --answers, never from argv', async () => {
    const id = await connectTestBank(s.env);
    const dir = tempDir();
    const file = join(dir, 'answers.json');
    writeFileSync(file, JSON.stringify({ password: 'test-password' }));
    const r = await runCli(['credentials', 'update', id, '--answers', file, '-o', 'json'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id });
    const none = await runCli(['credentials', 'update', id], { env: s.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--answers FILE/);
  }, 30_000);

  test('the 409 hint follows the status', () => {
    expect(conflictHint('c1', 'AWAITING_SUPPLEMENTAL_INFORMATION')).toContain('bankctl credentials supplement c1');
    expect(conflictHint('c1', 'UPDATING')).toContain('bankctl credentials watch c1');
    expect(conflictHint('c1', 'AUTHENTICATION_ERROR')).toContain('bankctl credentials update c1');
    expect(conflictHint('c1', 'SESSION_EXPIRED')).toContain('bankctl credentials authenticate c1');
    expect(conflictHint('c1', 'UPDATED')).toContain('bankctl credentials refresh c1 --wait');
    // final: nothing brings them back (the service refuses refresh, authenticate and update)
    expect(conflictHint('c1', 'PERMANENT_ERROR')).toMatch(/cannot be used again.*bankctl credentials delete c1/);
    expect(conflictHint('c1', 'PERMANENT_ERROR')).not.toMatch(/authenticate|refresh|update/);
    expect(conflictHint('c1', 'AWAITING_MOBILE_EID_AUTHENTICATION')).toContain('bankctl credentials watch c1');
    // new fields need --field without a terminal; the acting user of a --user run goes along
    expect(conflictHint('c1', 'AUTHENTICATION_ERROR', ' --user u9')).toContain(
      'bankctl credentials update --user u9 c1 --field NAME=VALUE --wait',
    );
  });
});
