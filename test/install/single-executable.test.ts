// The single executable (npm run build:sea): built once for this file into a temporary directory
// and run with a PATH that has no node on it: --version, a detached sandbox started and stopped,
// a push of 100,000 transactions (a file large enough for the worker-thread scan, which runs from
// the asset embedded in the executable) and a paging read of all of them back.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { requires } from '../helpers/requires.js';
import {
  connectorUser,
  runInstalled,
  totalCents,
  WORKER_SCAN_BYTES,
  workersExpected,
  writeTransactions,
  type Detached,
} from './helpers.js';

// Needs nothing beyond node_modules (postject) and this node binary (the one being copied).
const gate = requires({});
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let dir: string;
let exe: string;
let env: Record<string, string>;
let sandbox: Detached | undefined;

gate.describe('the single executable', () => {
  beforeAll(() => {
    dir = tempDir('bankctl-sea-');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--sea-only', join(dir, 'out')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    exe = join(dir, 'out', 'bankctl');
    // no node anywhere on PATH: the executable must carry its own
    const empty = join(dir, 'empty-path');
    mkdirSync(empty);
    env = { PATH: empty, HOME: dir, BANKCTL_CONFIG_DIR: join(dir, 'config') };
  }, 180_000);
  afterAll(async () => {
    if (sandbox) await runInstalled(exe, ['sandbox', 'stop'], env);
  });

  gate.test('is one file, with the licences of what it bundles beside it', () => {
    expect(statSync(exe).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(dir, 'out', 'THIRD-PARTY-NOTICES.txt'), 'utf8')).toMatch(/^- commander@/m);
  });

  gate.test('--version answers with the package version', async () => {
    const r = await runInstalled(exe, ['--version'], env);
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  gate.test(
    'starts a detached sandbox, pushes 100,000 transactions through the worker scan, reads them all back page by page, stops the sandbox',
    async () => {
      const start = await runInstalled(exe, ['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], env);
      expect(start.code, start.stderr).toBe(0);
      sandbox = JSON.parse(start.stdout) as Detached;
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await connectorUser(sandbox, 'sea');

      const file = join(dir, 'tx.ndjson');
      const cents = await writeTransactions(file, 100_000);
      expect(statSync(file).size).toBeGreaterThan(WORKER_SCAN_BYTES);
      const push = await runInstalled(
        exe,
        ['connector', 'push', '--user', 'sea', '--file', file, '--type', 'HISTORICAL', '-q'],
        {
          ...env,
          BANKCTL_BASE_URL: sandbox.baseUrl,
          BANKCTL_CONNECTOR_TOKEN: sandbox.connectorToken,
          NODE_DEBUG: 'worker',
        },
        120_000,
      );
      expect(push.code, push.stderr.replace(/^WORKER.*\n?/gm, '').slice(-2000)).toBe(0);
      // node's own debug log of worker threads: the scan ran in workers started from the embedded asset
      if (workersExpected()) expect(push.stderr).toMatch(/WORKER \d+: \[0\] created Worker with ID 1/);

      const read = await runInstalled(
        exe,
        ['transactions', 'list', '--all', '-o', 'ndjson'],
        { ...env, BANKCTL_BASE_URL: sandbox.baseUrl, BANKCTL_BASIC: 'sea:sea-token' },
        120_000,
      );
      expect(read.code, read.stderr.slice(-2000)).toBe(0);
      const got = totalCents(read.stdout);
      expect(got.count).toBe(100_000);
      expect(got.ids.size).toBe(100_000);
      expect(got.cents).toBe(cents);

      const stop = await runInstalled(exe, ['sandbox', 'stop'], env);
      expect(stop.code, stop.stderr).toBe(0);
      sandbox = undefined;
      const again = await fetch(`${JSON.parse(start.stdout).baseUrl}/version`).catch(() => undefined);
      expect(again).toBeUndefined();
      expect(existsSync(join(dir, 'config'))).toBe(true);
    },
    300_000,
  );
});
