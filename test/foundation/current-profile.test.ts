// A config.json whose "current" names no saved profile (edited by hand): refused like a mistyped
// --profile, but blamed on the file (its path and "current") with `config use` as the way out, not
// on BANKCTL_PROFILE, which nobody set. Real processes; the way out is taken against a loopback server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer(() => reply(200, '{"ok":true}'));
});
afterAll(() => server.close());

/** A config dir whose config.json says current: `current`, with one saved profile "prod". */
function configDir(current: string): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, 'config.json');
  const profiles = { prod: { 'base-url': server.url, token: 'tok-prod' } };
  writeFileSync(file, JSON.stringify({ current, profiles }), { mode: 0o600 });
  return { dir, file };
}

describe('the current profile of config.json', () => {
  test('one that is not saved: exit 2 naming the file and "current", the hint `config use`; nothing sent', async () => {
    const { dir, file } = configDir('prdo');
    const env = { BANKCTL_CONFIG_DIR: dir };
    const sent = server.seen.length;
    for (const args of [
      ['api', 'POST', '/api/v1/user/create', '-f', 'market=SE'],
      ['auth', 'logout'],
    ]) {
      const r = await spawnCli(args, { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `error: the current profile "prdo" ("current" in ${file}) is not saved; did you mean "prod"? (saved: default, prod) ` +
          '(switch to a saved one with `bankctl config use prod`, or create it with `bankctl config use prdo --create`; ' +
          '--profile NAME picks one for a single command)\n',
      );
      expect(r.stderr).not.toContain('BANKCTL_PROFILE');
    }
    expect(server.seen.length).toBe(sent);
    // the hint works: config use switches, and the next command runs with the profile
    const use = await spawnCli(['config', 'use', 'prod'], { env });
    expect(use.code, use.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).current).toBe('prod');
    const ok = await spawnCli(['api', 'POST', '/api/v1/user/create', '-f', 'market=SE'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(server.seen.at(-1)!.headers.authorization).toBe('Bearer tok-prod');
  });

  test('--profile and BANKCTL_PROFILE, which win over it, are still the ones named', async () => {
    const { dir } = configDir('nope');
    const flag = await spawnCli(['auth', 'logout', '--profile', 'ghost'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^error: --profile: no profile named "ghost" is saved/);
    const fromEnv = await spawnCli(['auth', 'logout'], { env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_PROFILE: 'ghost' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^error: BANKCTL_PROFILE: no profile named "ghost" is saved/);
    // and a saved one named by the flag runs, whatever "current" says
    const ok = await spawnCli(['api', 'POST', '/api/v1/user/create', '-f', 'market=SE', '--profile', 'prod'], {
      env: { BANKCTL_CONFIG_DIR: dir },
    });
    expect(ok.code, ok.stderr).toBe(0);
  });
});
