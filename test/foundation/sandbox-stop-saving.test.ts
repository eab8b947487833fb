// `sandbox stop` of a --data sandbox waits while the sandbox writes its last snapshot, which for a
// state of a GB takes tens of seconds: it used to give up after 10 s with an error and a `kill -9`
// hint, while the sandbox was only saving (and killing it then loses what it was saving). Real
// processes; the slow save is a preloaded script that delays the state file's last rename.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

/**
 * In the sandbox process only: once the file SLOW_MARK exists, every snapshot takes SLOW_MS, as a
 * state of a GB does; whether a change is saved by the periodic snapshot or by the last one, the
 * sandbox is busy saving when it is asked to stop.
 */
const SLOW_SAVE = `
if (process.argv.includes('start') && !process.argv.includes('--detach')) {
  const fs = require('node:fs');
  const rename = fs.renameSync;
  fs.renameSync = (from, to) => {
    if (String(to).endsWith('state.json') && fs.existsSync(process.env.SLOW_MARK))
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.SLOW_MS));
    return rename(from, to);
  };
  require('node:module').syncBuiltinESMExports();
}
`;

describe('sandbox stop of a sandbox writing its state', () => {
  test('waits for the last snapshot, says why after 2 s, and exits 0 once the sandbox is gone', async () => {
    const dir = tempDir();
    const script = join(dir, 'slow.cjs');
    writeFileSync(script, SLOW_SAVE);
    const data = join(dir, 'state.json');
    const env = {
      BANKCTL_CONFIG_DIR: join(dir, 'config'),
      NODE_OPTIONS: `--require ${script}`,
      SLOW_MS: '11000',
      SLOW_MARK: join(dir, 'slow'),
    };
    const started = await spawnCli(['sandbox', 'start', '--port', '0', '--data', data, '--detach'], { env });
    expect(started.code, started.stderr).toBe(0);
    const pid = (JSON.parse(readFileSync(join(dir, 'config', 'sandbox.json'), 'utf8')) as { pid: number }).pid;
    try {
      writeFileSync(env.SLOW_MARK, '');
      // a change for a snapshot to write (one with nothing new writes nothing)
      const user = await spawnCli(['users', 'create', '--market', 'SE'], { env });
      expect(user.code, user.stderr).toBe(0);
      const t0 = Date.now();
      const stop = await spawnCli(['sandbox', 'stop'], { env, timeoutMs: 60_000 });
      expect(stop.code, stop.stderr).toBe(0);
      expect(Date.now() - t0).toBeGreaterThan(10_000);
      expect(stop.stderr).toContain(`still stopping (pid ${pid}), writing its state to ${data}`);
      expect(stop.stderr).toContain('stopped');
      expect(existsSync(join(dir, 'config', 'sandbox.json'))).toBe(false);
      expect(JSON.parse(readFileSync(data, 'utf8').split('\n')[0]!)).toMatchObject({
        format: 'bankctl-sandbox-state/2',
      });
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  }, 60_000);
});
