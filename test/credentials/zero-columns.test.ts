// A pseudo-terminal that reports 0 columns (util-linux `script` without a terminal of its own, as in
// some CI and container set-ups): the spinner is left out, and the walk reaches its end. Before, the
// spinner library divided a line's width by 0 and cleared lines forever (megabytes of escape codes,
// the walk never moving on).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { requires } from '../helpers/requires.js';

const needs = requires({ tools: ['script'] });
let t: TestEnv | undefined;
let user = '';
beforeAll(async () => {
  if (needs.reason) return;
  t = await startTestSandbox({ authDelayMs: 600 });
  user = (await userWithToken(t.sandbox, ['credentials:read'])).userId;
});
afterAll(async () => t?.close());

needs.test(
  'credentials connect on a 0-column terminal: no spinner, exit 0, little output',
  async () => {
    const cmd = [
      `stty size;`,
      process.execPath,
      BIN,
      'credentials connect',
      `--user ${user}`,
      '--provider se-test-open-banking-decoupled-successful',
      '--field username=test-user',
      '--poll-interval 100',
      '-o json; echo EXIT=$?',
    ].join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], {
      env: { ...process.env, ...t!.env, BANKCTL_CONFIG_DIR: t!.env.BANKCTL_CONFIG_DIR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('latin1');
      if (out.length > 1_000_000) child.kill('SIGKILL');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await new Promise((r) => child.on('close', r));
    clearTimeout(timer);
    expect(out.split('\n')[0]!.trim()).toBe('0 0');
    expect(out.length).toBeLessThan(20_000);
    expect(out).toContain('EXIT=0');
    expect(out).toContain('"status": "UPDATED"');
    expect(out).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  },
  30_000,
);
