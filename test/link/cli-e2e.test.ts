// The real `bankctl auth link --no-browser --port 0` (bin/bankctl.js, built by `npm test` or
// `node scripts/build.mjs`) with the browser driving the sandbox's link pages: the CLI's callback
// server, the service's redirect and the code exchange fit together.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { BIN, tempDir } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { launchBrowser, watchErrors } from './helpers.js';

let t: TestEnv;
let browser: Browser;
const children: ChildProcess[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestSandbox(), launchBrowser()]);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await browser?.close();
  await t?.close();
});

function startLink(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'auth', 'link', '--no-browser', '--port', '0', '--wait-timeout', '30', ...args], { env: { PATH: process.env.PATH, ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  const exit = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c) => {
      err += c;
      const m = /(http:\/\/\S+\/1\.0\/authorize\/\S+)/.exec(err);
      if (m && /Waiting/.test(err)) resolve(m[1]!);
    });
    void exit.then(() => reject(new Error(`bankctl exited early: ${err}`)));
  });
  return { url, exit, stdout: () => out, stderr: () => err };
}

describe('bankctl auth link against the sandbox link service', () => {
  test('the browser connects a test bank; the CLI exits 0 with the user token and a stored refresh token', async () => {
    const configDir = tempDir();
    const run = startLink(['--provider', 'se-test-password', '--username', 'test-user', '--scope', 'accounts:read,credentials:read'], { ...t.env, BANKCTL_CONFIG_DIR: configDir });
    const url = await run.url;
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(url);
    await expect(page.locator('input[name=username]').inputValue()).resolves.toBe('test-user');
    await page.fill('input[name=password]', 'test-password');
    await page.click('#submit');
    // the CLI's own callback page
    await page.waitForURL(/\/callback\?/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connected');
    expect(await run.exit).toBe(0);
    await ctx.close();

    const token = JSON.parse(run.stdout());
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'accounts:read,credentials:read' });
    expect(token.refresh_token).toBeTruthy();
    expect(readFileSync(join(configDir, 'tokens.json'), 'utf8')).toContain(token.refresh_token);
    const creds = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', { headers: { authorization: `Bearer ${token.access_token}` } });
    expect(creds.json().credentials).toEqual([expect.objectContaining({ providerName: 'se-test-password', status: 'UPDATED' })]);
    expect(errors).toEqual([]);
  });

  test('a cancel in the browser ends the CLI with exit 9 naming USER_CANCELLED', async () => {
    const run = startLink([], { ...t.env, BANKCTL_CONFIG_DIR: tempDir() });
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(await run.url);
    await page.locator('[data-provider]').first().waitFor();
    await page.click('#cancel');
    await page.waitForURL(/\/callback\?/);
    expect(await run.exit).toBe(9);
    await ctx.close();
    expect(run.stderr()).toMatch(/the link flow ended in USER_CANCELLED: The user cancelled the flow\./);
  });
});
