// A misspelt name in --field or --answer. A --field the provider does not take was sent along (the
// service answers 400) after the field it misspelt was asked for, or reported missing without a word
// on the name typed. An --answer no round asked for was dropped without a word: the user was asked
// for the field, or the run failed naming only the field, not what they typed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { ScriptedPrompter } from '../../src/prompts/scripted.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 5 });
});
afterAll(() => t.close());

const FAST = ['--poll-interval', '20', '--wait-timeout', '20'];
const newUser = async () => (await userWithToken(t.sandbox, ['credentials:read'])).userId;
const credentialsOf = (user: string): Array<{ id: string }> =>
  [
    ...(t.sandbox.store.area('credentials', () => ({ records: new Map() })).records as Map<string, any>).values(),
  ].filter((c) => c.userId === user);

const connect = (user: string, provider: string, extra: string[], stdin = '') =>
  spawnCli(['credentials', 'connect', '--user', user, '--provider', provider, ...FAST, ...extra, '-o', 'json'], {
    env: t.env,
    stdin,
  });

describe('credentials connect: a --field name the provider does not take', () => {
  test('refused with exit 2 before anything is created, naming it and the nearest field', async () => {
    const user = await newUser();
    const r = await connect(
      user,
      'se-test-password',
      ['--field', 'usernme=test-user', '--field-stdin', 'password'],
      'test-password\n',
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('provider se-test-password has no field "usernme" (did you mean username?)');
    expect(r.stderr).toContain('its fields: username, password');
    expect(r.stderr).not.toMatch(/HTTP 400/);
    expect(credentialsOf(user)).toHaveLength(0);
  });

  test('on a terminal, refused before the misspelt field is asked for', async () => {
    const user = await newUser();
    const prompter = new ScriptedPrompter(['test-user', 'test-password']);
    const r = await runCli(
      ['credentials', 'connect', '--user', user, '--provider', 'se-test-password', '--field', 'pasword=x', ...FAST],
      { env: t.env, stdinIsTTY: true, stdoutIsTTY: true, context: { prompter } },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('has no field "pasword" (did you mean password?)');
    expect(prompter.asked).toEqual([]);
    expect(credentialsOf(user)).toHaveLength(0);
  });
});

describe('--answer names no round asked for', () => {
  test('without a terminal: the missing-answer error names the misspelt --answer and the field it meant', async () => {
    const r = await connect(await newUser(), 'se-test-other-multi-supplemental', [
      '--field',
      'username=test-user',
      '--answer',
      'code=1234',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'no value for the supplemental field "code1" (First code) and no terminal to ask on; --answer code was given, which names no field asked here: did you mean code1?',
    );
  });

  test("a later round's answer is not taken for a misspelling of this round's field", async () => {
    const r = await connect(await newUser(), 'se-test-other-multi-supplemental', [
      '--field',
      'username=test-user',
      '--answer',
      'code2=5678',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('no value for the supplemental field "code1"');
    expect(r.stderr).not.toContain('did you mean');
  });

  test('the walk succeeds: a warning names the answers not sent and the fields the bank asked for', async () => {
    const r = await connect(await newUser(), 'se-test-other-multi-supplemental', [
      '--field',
      'username=test-user',
      '--answer',
      'code1=1234',
      '--answer',
      'code2=5678',
      '--answer',
      'devicename=laptop',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'UPDATED' });
    expect(r.stderr).toContain(
      'warning: --answer devicename (did you mean deviceName?) was not asked for and not sent; the bank asked for code1, code2, deviceName',
    );
  });

  test('answers for a bank that asks nothing: said so; the --answers file may hold the provider fields', async () => {
    const r = await connect(await newUser(), 'se-test-password', [
      '--field',
      'username=test-user',
      '--answer',
      'password=test-password',
      '--answer',
      'otp=123456',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: --answer otp was not asked for and not sent; the bank asked for no supplemental information',
    );
    expect(r.stderr).not.toMatch(/--answer password/);
  });

  test('on a terminal: the fields are asked, and at the end the warning names the misspelt answer', async () => {
    const prompter = new ScriptedPrompter(['1234', '5678', '']);
    const r = await runCli(
      [
        'credentials',
        'connect',
        '--user',
        await newUser(),
        '--provider',
        'se-test-other-multi-supplemental',
        '--field',
        'username=test-user',
        '--answer',
        'code=1234',
        ...FAST,
      ],
      { env: t.env, stdinIsTTY: true, stdoutIsTTY: true, context: { prompter } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.map((a) => a.message)).toEqual(['First code', 'Second code', 'Name this device (optional)']);
    expect(r.stderr).toContain('warning: --answer code (did you mean code1?) was not asked for and not sent');
  });

  test('update --answers FILE --wait: the provider fields it took are not named as unused', async () => {
    const user = await newUser();
    // a wrong password: AUTHENTICATION_ERROR, to be fixed with update
    const made = await connect(
      user,
      'se-test-password',
      ['--field', 'username=test-user', '--field-stdin', 'password'],
      'wrong\n',
    );
    expect(made.code, made.stderr).toBe(9);
    const id = credentialsOf(user)[0]!.id;
    const file = join(tempDir(), 'answers.json');
    writeFileSync(file, JSON.stringify({ password: 'test-password', otp: '123456' }));
    const r = await spawnCli(['credentials', 'update', '--user', user, id, '--answers', file, '--wait', ...FAST], {
      env: t.env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --answer otp was not asked for and not sent');
    expect(r.stderr).not.toMatch(/--answer password/);
  });

  test('credentials supplement: the unused answer is named, the asked one sent', async () => {
    const user = await newUser();
    const left = await connect(user, 'se-test-other-multi-supplemental', ['--field', 'username=test-user']);
    expect(left.code, left.stderr).toBe(2);
    const id = credentialsOf(user)[0]!.id;
    const r = await spawnCli(
      ['credentials', 'supplement', '--user', user, id, '--answer', 'code1=1234', '--answer', 'cod2=1'],
      { env: t.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --answer cod2 was not asked for and not sent; the bank asked for code1');
    expect(r.stderr).toContain(`sent the answer (code1) to ${id}`);
  });
});
