// A byte order mark at the start of a JSON file the user wrote (editors on Windows write one):
// `api --input` (a file or stdin), a hand-edited config.json, `consents v2 create --parameters` and
// `sandbox load` take it as push inputs, --accounts and --answers already did; JSON.parse refused it
// with "Unexpected token". Only a leading one: one anywhere else is still an error.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { FIXTURES } from '../sandbox-bench/helpers.js';

const BOM = '\uFEFF';

let server: Awaited<ReturnType<typeof scriptedServer>>;
let t: TestEnv;
beforeAll(async () => {
  server = await scriptedServer(() => reply(200, '{"ok":true}'));
  t = await startTestSandbox();
});
afterAll(async () => {
  await server.close();
  await t.close();
});

function env(): Record<string, string> {
  return { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok-123456' };
}

function file(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

describe('a leading byte order mark in the JSON a user wrote', () => {
  test('api --input, from a file and from stdin: the body without it', async () => {
    const e = env();
    const body = '{"market":"SE","amount":1.10}';
    const fromFile = await spawnCli(['api', 'POST', '/api/v1/user/create', '--input', file('b.json', BOM + body)], {
      env: e,
    });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(server.seen.at(-1)!.body).toBe(body);
    const fromStdin = await spawnCli(['api', 'POST', '/api/v1/user/create', '--input', '-'], {
      env: e,
      stdin: BOM + body,
    });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(server.seen.at(-1)!.body).toBe(body);
    // anywhere else it is no leading mark: still refused, nothing sent
    const sent = server.seen.length;
    const twice = await spawnCli(['api', 'POST', '/api/v1/user/create', '--input', '-'], {
      env: e,
      stdin: BOM + BOM + body,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('- is not valid JSON');
    expect(server.seen.length).toBe(sent);
  });

  test('a hand-edited config.json: read, its profile used, and rewritten without the mark by config set', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o700);
    const config = join(dir, 'config.json');
    const profiles = { ci: { 'base-url': server.url, token: 'tok-from-config' } };
    writeFileSync(config, `${BOM}${JSON.stringify({ current: 'ci', profiles }, null, 2)}\r\n`, { mode: 0o600 });
    const r = await spawnCli(['api', 'POST', '/api/v1/user/create', '-f', 'market=SE'], {
      env: { BANKCTL_CONFIG_DIR: dir },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen.at(-1)!.headers.authorization).toBe('Bearer tok-from-config');
    const set = await spawnCli(['config', 'set', 'output', 'json'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(set.code, set.stderr).toBe(0);
    const text = readFileSync(config, 'utf8');
    expect(text.startsWith(BOM)).toBe(false);
    expect(JSON.parse(text).profiles.ci).toEqual({ ...profiles.ci, output: 'json' });
  });

  test('consents v2 create --parameters and sandbox load', async () => {
    const params = '{"version":"1.0.0","userParameters":{"merchantId":"m-1"}}';
    const consent = await spawnCli(
      ['consents', 'v2', 'create', '--provider', 'p', '--for-user', 'u', '--parameters', file('p.json', BOM + params)],
      { env: env() },
    );
    expect(consent.stderr).not.toContain('not valid JSON');
    expect(consent.stderr).not.toContain('Unexpected token');
    expect(JSON.parse(server.seen.at(-1)!.body).financialServiceParameters).toEqual(JSON.parse(params));
    const scenario = file('scenario.json', BOM + readFileSync(FIXTURES, 'utf8'));
    const load = await spawnCli(['sandbox', 'load', scenario, '-o', 'json'], { env: t.env });
    expect(load.code, load.stderr).toBe(0);
    expect(Object.keys(JSON.parse(load.stdout))).toContain('users');
  });
});
