// `bankctl ... 2>&1 | head`: the reader of stderr goes away before a notice or the error line is
// written. That is no bug of the command: its exit code stands (it was 1, "unexpected error", from an
// uncaught EPIPE on stderr) and stdout still carries the whole answer.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

/** bin/bankctl.js with stderr a pipe closed by its reader at once; stdout read whole. */
function withStderrClosed(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // the read end closed before the CLI writes anything to it (node takes ~100 ms to start)
    child.stderr.destroy();
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout });
    });
  });
}

let t: TestEnv;
let user: string;
beforeAll(async () => {
  t = await startTestSandbox();
  const created = await spawnCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: t.env });
  expect(created.code).toBe(0);
  user = JSON.parse(created.stdout).user_id;
});
afterAll(() => t.close());

describe('stderr closed by its reader', () => {
  test('a notice that cannot be written: exit 0, not 1', async () => {
    const r = await withStderrClosed(['config', 'set', 'output', 'json'], { BANKCTL_CONFIG_DIR: tempDir() });
    expect(r.code).toBe(0);
  });

  test('a change whose notice cannot be written: the answer whole on stdout, exit 0', async () => {
    // `--use` says on stderr which user the profile now acts as
    const r = await withStderrClosed(['users', 'create', '--market', 'SE', '--use', '-o', 'json'], t.env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).user_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test('an error line that cannot be written: the error exit code (4), not 1', async () => {
    const r = await withStderrClosed(['accounts', 'balances', 'no-such-account', '--user', user], t.env);
    expect(r.code).toBe(4);
  });
});
