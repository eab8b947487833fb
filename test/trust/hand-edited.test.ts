// Files a person edits by hand, and a shell whose directory was deleted: no command crashes with
// "unexpected" (exit 1) or a stack trace. A setting written as a number or a boolean is taken as its
// text; another shape is exit 2 naming it; a token cache of another shape is read entry by entry
// and never spread into character keys.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

test('"timeout": 30 and "protected": true are taken as their text; an object is exit 2 naming it', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"timeout":30,"protected":true}}}');
  const get = await runCli(['config', 'get', 'timeout'], { env: { BANKCTL_CONFIG_DIR: dir } });
  expect(get.code, get.stderr).toBe(0);
  expect(get.stdout.trim()).toBe('30');
  writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"timeout":{}}}}');
  const bad = await runCli(['config', 'get', 'timeout'], { env: { BANKCTL_CONFIG_DIR: dir } });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(
    /the config file .*config\.json is not valid: "timeout" of profile "default" must be a string/,
  );
});

test('a token cache of another shape: auth status works, and a new token does not spread it', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'tokens.json'), '{"default":"xy"}', { mode: 0o600 });
  const env = { ...t.env, BANKCTL_CONFIG_DIR: dir };
  const status = await runCli(['auth', 'status'], { env });
  expect(status.code, status.stderr).toBe(0);
  writeFileSync(join(dir, 'tokens.json'), '{"default":{"a":"str"}}', { mode: 0o600 });
  expect((await runCli(['auth', 'status'], { env })).code).toBe(0);
  writeFileSync(join(dir, 'tokens.json'), '{"default":"xy"}', { mode: 0o600 });
  const created = await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
  expect(created.code, created.stderr).toBe(0);
  const cache = JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  expect(Object.keys(cache.default!)).not.toContain('0');
  expect(
    Object.values(cache.default!).every((x) => typeof (x as { accessToken?: unknown }).accessToken === 'string'),
  ).toBe(true);
});

test('run from a directory that was deleted: a command that needs no relative path works', async () => {
  const gone = join(tempDir(), 'gone');
  mkdirSync(gone);
  const env = { ...t.env, BANKCTL_CONFIG_DIR: tempDir() };
  // not execFileSync: the sandbox answering it runs in this process
  const out = await new Promise<string>((resolve) => {
    const child = spawn(
      'sh',
      [
        '-c',
        'cd "$1" && rmdir "$1" && exec "$2" "$3" providers list --market SE -o json',
        'sh',
        gone,
        process.execPath,
        BIN,
      ],
      { env: { ...process.env, ...env } },
    );
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.on('close', () => resolve(text));
  });
  expect(JSON.parse(out).length).toBeGreaterThan(0);
});
