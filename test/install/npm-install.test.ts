// The package as a user gets it: `npm pack` in a copy of this checkout without dist/ (so prepack
// must build it), then `npm install -g ./bankctl-<version>.tgz --prefix <tmp> --offline` (so
// nothing may be fetched: no runtime dependency), and the installed `bankctl` run for --version,
// a detached sandbox, the demo, a push large enough for the worker-thread scan, and completion.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT, tempDir } from '../helpers/cli.js';
import { requires, toolPath } from '../helpers/requires.js';
import {
  connectorUser,
  runInstalled,
  totalCents,
  WORKER_SCAN_BYTES,
  workersExpected,
  writeTransactions,
  type Detached,
} from './helpers.js';

const gate = requires({ tools: ['npm'] });
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
};

let dir: string;
let tarball: string;
let installed: string;
let bankctl: string;
let env: Record<string, string>;
let sandbox: Detached | undefined;

/** Runs npm with the test's own cache and no network chatter. */
function npm(args: string[], cwd: string): string {
  return execFileSync(toolPath('npm')!, [...args, '--no-audit', '--no-fund', '--cache', join(dir, 'npm-cache')], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' },
  });
}

gate.describe('npm pack, npm install -g, the installed bankctl', () => {
  beforeAll(() => {
    dir = tempDir('bankctl-install-');
    // the checkout without node_modules, dist/ or git; node_modules linked in for the build tools
    const copy = join(dir, 'src');
    cpSync(ROOT, copy, {
      recursive: true,
      filter: (from) => !/^(node_modules|dist|\.git|coverage|\.bankctl-test)(\/|$)/.test(relative(ROOT, from)),
    });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const packed = join(dir, 'packed');
    mkdirSync(packed);
    npm(['pack', '--pack-destination', packed], copy);
    tarball = join(packed, `${pkg.name}-${pkg.version}.tgz`);
    const prefix = join(dir, 'prefix');
    npm(['install', '-g', tarball, '--prefix', prefix, '--offline'], dir);
    installed = join(prefix, 'lib', 'node_modules', pkg.name);
    bankctl = join(prefix, 'bin', 'bankctl');
    // node on PATH (the package needs one), nothing of this checkout
    env = {
      PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      HOME: dir,
      BANKCTL_CONFIG_DIR: join(dir, 'config'),
    };
  }, 240_000);
  afterAll(async () => {
    if (sandbox) await runInstalled(bankctl, ['sandbox', 'stop'], env);
  });

  gate.test('the package has no runtime dependencies and carries the built dist/, the licence and the notices', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    const files = readdirSync(installed);
    expect(files).toEqual(expect.arrayContaining(['bin', 'dist', 'completions', 'LICENSE', 'README.md']));
    expect(files).not.toContain('src');
    expect(files).not.toContain('test');
    expect(files).not.toContain('node_modules');
    expect(existsSync(join(installed, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'scan-worker.js'))).toBe(true);
    expect(readdirSync(join(installed, 'dist')).filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(readFileSync(join(installed, 'dist', 'THIRD-PARTY-NOTICES.txt'), 'utf8')).toMatch(/^- undici@/m);
    expect(statSync(tarball).size).toBeLessThan(5 * 1024 * 1024);
  });

  gate.test('--version', async () => {
    const r = await runInstalled(bankctl, ['--version'], env);
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  gate.test('completion bash prints a script that completes the nouns', async () => {
    const r = await runInstalled(bankctl, ['completion', 'bash'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/complete .*bankctl/);
    expect(r.stdout).toContain('transactions');
  });

  gate.test(
    'demo walks through its embedded sandbox',
    async () => {
      const r = await runInstalled(bankctl, ['demo'], env, 120_000);
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      // the steps' narration on stderr, their output (tables) on stdout
      expect(r.stderr).toContain('That is the journey');
      expect(r.stdout).toContain('Order 1000');
    },
    150_000,
  );

  gate.test(
    'a detached sandbox, a push of a file large enough for the worker scan, everything read back, the sandbox stopped',
    async () => {
      const start = await runInstalled(bankctl, ['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], env);
      expect(start.code, start.stderr).toBe(0);
      sandbox = JSON.parse(start.stdout) as Detached;
      await connectorUser(sandbox, 'npm');
      const file = join(dir, 'tx.ndjson');
      const cents = await writeTransactions(file, 100_000);
      expect(statSync(file).size).toBeGreaterThan(WORKER_SCAN_BYTES);
      const push = await runInstalled(
        bankctl,
        ['connector', 'push', '--user', 'npm', '--file', file, '--type', 'HISTORICAL', '-q'],
        {
          ...env,
          BANKCTL_BASE_URL: sandbox.baseUrl,
          BANKCTL_CONNECTOR_TOKEN: sandbox.connectorToken,
          NODE_DEBUG: 'worker',
        },
        120_000,
      );
      expect(push.code, push.stderr.replace(/^WORKER.*\n?/gm, '').slice(-2000)).toBe(0);
      // node's debug log of worker threads: dist/scan-worker.js of the installed package ran
      if (workersExpected()) expect(push.stderr).toContain(join(installed, 'dist', 'scan-worker.js'));
      const read = await runInstalled(
        bankctl,
        ['transactions', 'list', '--all', '-o', 'ndjson'],
        { ...env, BANKCTL_BASE_URL: sandbox.baseUrl, BANKCTL_BASIC: 'npm:npm-token' },
        120_000,
      );
      expect(read.code, read.stderr.slice(-2000)).toBe(0);
      const got = totalCents(read.stdout);
      expect(got).toMatchObject({ count: 100_000, cents });
      const stop = await runInstalled(bankctl, ['sandbox', 'stop'], env);
      expect(stop.code, stop.stderr).toBe(0);
      sandbox = undefined;
    },
    300_000,
  );
});
