import { describe, expect } from 'vitest';
import { newCmdSupplement } from '../../../src/commands/credentials/supplement.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let waiting = '';
let updated = '';

/** New credentials that wait for codes (the ones before are deleted: the same fields twice are a 409). */
async function awaitingSupplemental(): Promise<void> {
  const list = JSON.parse((await runCli(['credentials', 'list', '-o', 'json'], { env: sb.env })).stdout);
  for (const old of list) await runCli(['credentials', 'delete', old.id, '--yes'], { env: sb.env });
  const c = await runCli(
    [
      'credentials',
      'create',
      '--provider',
      'se-test-other-multi-supplemental',
      '--field',
      'username=test-user',
      '-o',
      'json',
    ],
    { env: sb.env },
  );
  waiting = JSON.parse(c.stdout).id;
  const w = await runCli(
    ['credentials', 'watch', waiting, '--until', 'AWAITING_SUPPLEMENTAL_INFORMATION', '--poll-interval', '10'],
    { env: sb.env },
  );
  expect(w.code, w.stderr).toBe(0);
}

describe('credentials supplement', () => {
  optionCases('credentials supplement', newCmdSupplement, [
    {
      name: 'answers',
      args: ['c1', '--answer', 'code1=1234', '--answer', 'code2=5678'],
      options: { id: 'c1', given: { code1: '1234', code2: '5678' } },
    },
    {
      name: 'an --answers file that is not there',
      args: ['c1', '--answers', '/no/such/file'],
      code: 2,
      stderr: '--answers: cannot read /no/such/file',
    },
  ]);
  cliCases('credentials supplement', () => sb.env, [
    {
      name: 'the answers go to the credentials that wait for them',
      before: awaitingSupplemental,
      args: () => [waiting, '--answer', 'code1=1234'],
      code: 0,
      // the challenge shown (an immutable field) goes back with the code, but is not an answer
      stderr: [/Challenge: \d+/, /sent the answer \(code1\) to [0-9a-f]{32}/],
    },
    {
      name: '-q: every field answered by flag, so neither the challenge nor the notice',
      before: awaitingSupplemental,
      args: () => [waiting, '--answer', 'code1=1234', '-q'],
      code: 0,
      stderr: (text) => expect(text).toBe(''),
      after: async () => {
        // the answer did go: the credentials come to the second round of codes
        let info = '';
        for (let i = 0; i < 100 && !info.includes('code2'); i++) {
          const c = await runCli(['credentials', 'get', waiting, '-o', 'json'], { env: sb.env });
          info = JSON.stringify(JSON.parse(c.stdout).supplementalInformation ?? null);
          if (!info.includes('code2')) await new Promise((r) => setTimeout(r, 50));
        }
        expect(info).toContain('code2');
      },
    },
    {
      name: 'a missing answer without a terminal names the flag',
      before: awaitingSupplemental,
      args: () => [waiting],
      code: 2,
      stderr: /code1.*--answer code1=VALUE/,
    },
    {
      name: 'credentials that wait for nothing: nothing to send',
      before: async () => void (updated = await connectTestBank(sb.env)),
      args: () => [updated],
      code: 2,
      stderr: 'not waiting for supplemental information; nothing to send',
    },
  ]);
});
