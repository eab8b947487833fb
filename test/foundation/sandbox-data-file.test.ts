// `sandbox start --data FILE`: a FILE that is not a regular file is refused before anything starts.
// Real processes.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

describe('sandbox start --data that is not a regular file', () => {
  test.each([[[]], [['--detach']]])('a FIFO or a directory is refused up front with exit 2 %j', async (extra) => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: join(dir, 'config') };
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    try {
      // without the check, a FIFO blocked the start for ever: a short timeout shows it
      const f = await spawnCli(['sandbox', 'start', '--port', '0', '--data', fifo, ...extra], { env, timeoutMs: 8000 });
      expect(f.stderr.trim()).toBe(`error: --data: ${fifo} is a FIFO, not a regular file; give a file name`);
      expect(f.code).toBe(2);
      const d = await spawnCli(['sandbox', 'start', '--port', '0', '--data', sub, ...extra], { env });
      expect(d.stderr.trim()).toBe(`error: --data: ${sub} is a directory; give a file name`);
      expect(d.code).toBe(2);
      expect(existsSync(join(dir, 'config', 'sandbox.json'))).toBe(false);
    } finally {
      // a reader still blocked on the FIFO (a start without the check) gets its end of file, and ends
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // no reader (ENXIO): nothing was left blocked
      }
    }
  });
});
