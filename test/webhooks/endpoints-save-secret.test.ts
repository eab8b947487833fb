// `webhooks endpoints create --save-secret` when the profile already holds an endpoint's secret: the
// service never shows that secret again, so it is not replaced without --yes (exit 2 before anything
// is created); with --yes the new one replaces it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => t.close());

const saved = () =>
  JSON.parse(readFileSync(join(t.configDir, 'config.json'), 'utf8')).profiles.default['webhook-secret'];
const create = (url: string, ...more: string[]) =>
  spawnCli(
    [
      'webhooks',
      'endpoints',
      'create',
      '--url',
      url,
      '--event',
      'refresh:finished',
      '--save-secret',
      '-o',
      'json',
      ...more,
    ],
    {
      env: t.env,
    },
  );
const endpoints = async () =>
  JSON.parse((await spawnCli(['webhooks', 'endpoints', 'list', '-o', 'json'], { env: t.env })).stdout) as {
    url: string;
  }[];

describe('webhooks endpoints create --save-secret', () => {
  test('does not silently replace a saved secret; --yes replaces it', async () => {
    const first = await create('http://127.0.0.1:9/first');
    expect(first.code, first.stderr).toBe(0);
    const firstSecret = JSON.parse(first.stdout).secret as string;
    expect(saved()).toBe(firstSecret);

    const second = await create('http://127.0.0.1:9/second');
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toMatch(/already holds a webhook-secret/);
    expect(second.stderr).toMatch(/--yes/);
    expect(second.stderr).not.toContain(firstSecret);
    expect(second.stdout).toBe('');
    // nothing was created, and the saved secret is still the first endpoint's
    expect((await endpoints()).map((e) => e.url)).toEqual(['http://127.0.0.1:9/first']);
    expect(saved()).toBe(firstSecret);

    const third = await create('http://127.0.0.1:9/third', '--yes');
    expect(third.code, third.stderr).toBe(0);
    expect(saved()).toBe(JSON.parse(third.stdout).secret);
  });
});
