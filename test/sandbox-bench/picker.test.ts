// As a new user would: `credentials connect` on the sandbox with no flags but a market offers the
// test providers first (no --include-test needed), and Handelsbanken completes with the personal
// number the prompt's hint names.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ScriptedPrompter } from '../../src/prompts/scripted.js';
import { runCli } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let userId = '';
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 20 });
  userId = (await userWithToken(t.sandbox, ['user:read'])).userId;
});
afterAll(() => t.close());

test('the picker lists the test providers first; the eID bank succeeds with the hinted personal number', async () => {
  const prompter = new ScriptedPrompter(['', '199001011234']);
  // the first answer searches with an empty term (the list as first shown); then the personal number
  prompter.search = async function <T>(o: {
    message: string;
    source: (term: string | undefined) => Array<{ name: string; value: T }>;
  }) {
    const shown = o.source(undefined);
    this.asked.push({ kind: 'search', message: o.message, choices: shown.map((c) => c.name) });
    (this as unknown as { answers: unknown[] }).answers.shift();
    return shown.find((c) => String(c.value) === 'se-handelsbanken-bankid')!.value;
  };
  const r = await runCli(
    ['credentials', 'connect', '--user', userId, '--market', 'SE', '--poll-interval', '20', '-o', 'json'],
    {
      env: t.env,
      stdinIsTTY: true,
      stdoutIsTTY: true,
      context: { prompter },
    },
  );
  expect(r.code, r.stderr).toBe(0);
  const shown = prompter.asked.find((a) => a.kind === 'search')!.choices!;
  const firstBank = shown.findIndex((n) => !n.includes('[test]'));
  expect(shown[0]).toContain('[test]');
  expect(shown.slice(firstBank).some((n) => n.includes('[test]'))).toBe(false);
  // the hint printed before the personal-number prompt names the test identities
  expect(r.stderr).toContain('In the sandbox, 199001011234 succeeds');
  expect(JSON.parse(r.stdout).status).toBe('UPDATED');
});
