// `config set` and `config unset` on a protected profile confirm like every other change to it:
// without a terminal they refuse without --yes (exit 2, the profile unchanged); with --yes the change
// is made; on a terminal the profile's name is typed. Making a profile protected asks nothing.
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { ScriptedPrompter } from '../../src/prompts/scripted.js';

const PROTECTED = /profile "good" is protected: .*refusing without --yes/;

/** A config directory of its own, with profile "good" holding a base URL and then protected. */
async function goodProfile(): Promise<Record<string, string>> {
  const env = { BANKCTL_CONFIG_DIR: tempDir('bankctl-cfg-') };
  for (const args of [
    ['config', 'set', 'base-url', 'https://api.example.com', '--profile', 'good'],
    ['config', 'set', 'output', 'json', '--profile', 'good'],
    ['config', 'set', 'protected', 'true', '--profile', 'good'],
  ]) {
    const r = await spawnCli(args, { env });
    expect(r.code, `${args.join(' ')}: an unprotected profile asks nothing\n${r.stderr}`).toBe(0);
  }
  return env;
}

async function get(env: Record<string, string>, key: string, profile = 'good'): Promise<string | undefined> {
  const r = await spawnCli(['config', 'get', key, '--profile', profile], { env });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

describe('config set/unset on a protected profile, without a terminal', () => {
  test('set base-url, set protected false and unset refuse with exit 2 naming --yes; nothing changes', async () => {
    const env = await goodProfile();
    for (const args of [
      ['config', 'set', 'base-url', 'http://127.0.0.1:9999', '--profile', 'good'],
      ['config', 'set', 'protected', 'false', '--profile', 'good'],
      ['config', 'unset', 'base-url', '--profile', 'good'],
      ['config', 'unset', 'protected', '--profile', 'good'],
    ]) {
      const r = await spawnCli(args, { env });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(PROTECTED);
      expect(r.stderr).not.toMatch(/ set in profile| unset in profile/);
    }
    expect(await get(env, 'base-url')).toBe('https://api.example.com');
    expect(await get(env, 'protected')).toBe('true');
  });

  test('the current profile (config use) is checked too, and BANKCTL_PROFILE', async () => {
    const env = await goodProfile();
    expect((await spawnCli(['config', 'use', 'good'], { env })).code).toBe(0);
    const r = await spawnCli(['config', 'set', 'output', 'table'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(PROTECTED);
    const e = await spawnCli(['config', 'unset', 'output'], { env: { ...env, BANKCTL_PROFILE: 'good' } });
    expect(e.code, e.stderr).toBe(2);
    expect(await get(env, 'output')).toBe('json');
  });

  test('with --yes (or -y) the change is made', async () => {
    const env = await goodProfile();
    const set = await spawnCli(['config', 'set', 'base-url', 'http://127.0.0.1:9999', '--profile', 'good', '--yes'], {
      env,
    });
    expect(set.code, set.stderr).toBe(0);
    expect(await get(env, 'base-url')).toBe('http://127.0.0.1:9999');
    const unset = await spawnCli(['config', 'unset', 'output', '--profile', 'good', '-y'], { env });
    expect(unset.code, unset.stderr).toBe(0);
    expect(await get(env, 'output')).toBeUndefined();
    const off = await spawnCli(['config', 'set', 'protected', 'false', '--profile', 'good', '--yes'], { env });
    expect(off.code, off.stderr).toBe(0);
    expect(await get(env, 'protected')).toBe('false');
    // no longer protected: no --yes needed
    const free = await spawnCli(['config', 'set', 'base-url', 'https://api.example.com', '--profile', 'good'], {
      env,
    });
    expect(free.code, free.stderr).toBe(0);
  });

  test('protected true asks nothing (again included); other profiles are not affected', async () => {
    const env = await goodProfile();
    const again = await spawnCli(['config', 'set', 'protected', 'true', '--profile', 'good'], { env });
    expect(again.code, again.stderr).toBe(0);
    const other = await spawnCli(['config', 'set', 'base-url', 'http://127.0.0.1:9999', '--profile', 'other'], {
      env,
    });
    expect(other.code, other.stderr).toBe(0);
    expect(await get(env, 'base-url', 'other')).toBe('http://127.0.0.1:9999');
  });

  test('a usage mistake is still reported first', async () => {
    const env = await goodProfile();
    const r = await spawnCli(['config', 'set', 'protected', 'maybe', '--profile', 'good'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/protected must be true or false, got "maybe"/);
    // the words the reader also takes: the one config set stores is named
    const yes = await spawnCli(['config', 'set', 'protected', 'yes', '--profile', 'good'], { env });
    expect(yes.code).toBe(2);
    expect(yes.stderr).toContain('protected must be true or false, got "yes" (did you mean `true`?)');
  });
});

describe('config set/unset on a protected profile, on a terminal', () => {
  test("the profile's name typed: changed; anything else: nothing done", async () => {
    const env = await goodProfile();
    const tty = { env, stdinIsTTY: true, stdoutIsTTY: true };
    const wrong = new ScriptedPrompter(['prod']);
    const no = await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9999', '--profile', 'good'], {
      ...tty,
      context: { prompter: wrong },
    });
    expect(no.code, no.stderr).toBe(2);
    expect(wrong.asked).toEqual([
      { kind: 'input', message: 'Profile "good" is protected. Type its name to bankctl config set base-url:' },
    ]);
    expect(no.stderr).toMatch(/"prod" is not "good": nothing was done/);
    expect(await get(env, 'base-url')).toBe('https://api.example.com');

    const right = new ScriptedPrompter(['good']);
    const yes = await runCli(['config', 'unset', 'base-url', '--profile', 'good'], {
      ...tty,
      context: { prompter: right },
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(right.asked).toHaveLength(1);
    expect(await get(env, 'base-url')).toBeUndefined();
  });
});

describe("the profile's own credentials on a protected profile, without a terminal", () => {
  test('auth login, auth logout and sandbox rotate-connector-token refuse without --yes; nothing changes', async () => {
    const env = await goodProfile();
    for (const args of [
      ['auth', 'login', '--client-id', 'other', '--no-verify', '--profile', 'good'],
      ['auth', 'logout', '--profile', 'good'],
      ['sandbox', 'rotate-connector-token', '--save-next', '--profile', 'good'],
    ]) {
      const r = await spawnCli(args, { env: { ...env, BANKCTL_CLIENT_SECRET: 'x' } });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(PROTECTED);
    }
    expect(await get(env, 'client-id')).toBeUndefined();
    expect(await get(env, 'base-url')).toBe('https://api.example.com');
    const yes = await spawnCli(['auth', 'login', '--client-id', 'other', '--no-verify', '--profile', 'good', '--yes'], {
      env: { ...env, BANKCTL_CLIENT_SECRET: 'x' },
    });
    expect(yes.code, yes.stderr).toBe(0);
    expect(await get(env, 'client-id')).toBe('other');
  });
});
