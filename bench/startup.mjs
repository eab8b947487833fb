// Start-up: `bankctl --version` and verb and noun `--help` against bare `node -e 0`, the peak RSS of
// a plain command served from the token cache (`auth token` against a detached sandbox) against
// `node -e 0`'s, and the single executable (`npm run build:sea`) beside `node -e 0` and the
// npm-installed CLI (npm pack + npm install -g into a temporary prefix). All interleaved in one
// run so that the machine's noise hits every case alike; medians.
//
// Peak RSS is the child's own getrusage maximum, reported at exit by a preloaded one-liner
// (--require, the same for every case): no GNU time needed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, printTable, ROOT } from './lib.mjs';

const VERSION_LIMIT = 1.1;
const HELP_LIMIT = 1.25;
const RSS_LIMIT = 1.5;

/** Runs argv to completion: wall ms and, when rssFile is given, the child's peak RSS in MB. */
function runChild(argv, { env = process.env, preload } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      env: preload ? { ...env, NODE_OPTIONS: `--require ${preload}` } : env,
    });
    let stderr = '';
    let rss = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdio[3].on('data', (c) => (rss += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      resolve({ ms, rssMb: rss ? Number(rss) / 1024 : undefined });
    });
  });
}

/** The npm-installed CLI: npm pack of this checkout (dist/ as built) into a temporary prefix. */
function npmInstalled(dir) {
  const npm = (args, cwd) =>
    execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel', 'error', '--cache', join(dir, 'cache')], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const packed = join(dir, 'packed');
  mkdirSync(packed);
  // dist/ is there already (npm run bench builds it): no prepack again
  npm(['pack', '--ignore-scripts', '--pack-destination', packed], ROOT);
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  npm(['install', '-g', join(packed, `${name}-${version}.tgz`), '--prefix', join(dir, 'prefix'), '--offline'], dir);
  return join(dir, 'prefix', 'bin', 'bankctl');
}

export async function runStartup({ runs = Number(process.env.RUNS ?? 21), rssRuns = 5 } = {}) {
  if (!existsSync(`${ROOT}dist/main.js`)) throw new Error('run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-bench-startup-'));
  const config = join(dir, 'config');
  const env = { ...process.env, BANKCTL_CONFIG_DIR: config };
  for (const k of [
    'BANKCTL_BASE_URL',
    'BANKCTL_PROFILE',
    'BANKCTL_TOKEN',
    'BANKCTL_CLIENT_ID',
    'BANKCTL_CLIENT_SECRET',
  ])
    delete env[k];
  const preload = join(dir, 'rss.cjs');
  writeFileSync(
    preload,
    "process.on('exit', () => { try { require('fs').writeSync(3, String(process.resourceUsage().maxRSS)); } catch {} });\n",
  );
  const node = process.execPath;
  let sandboxUp = false;
  try {
    // the single executable and the npm-installed CLI, built for this run
    execFileSync(node, [join(ROOT, 'scripts', 'build.mjs'), '--sea-only', join(dir, 'sea')], { stdio: 'ignore' });
    const sea = join(dir, 'sea', 'bankctl');
    const installed = npmInstalled(dir);

    const cases = [
      { name: 'node -e 0 (baseline)', argv: [node, '-e', '0'] },
      { name: 'bankctl --version', argv: [node, BIN, '--version'], limit: VERSION_LIMIT },
      ...[
        [],
        ['connector'],
        ['transactions'],
        ['users', 'create'],
        ['auth', 'login'],
        ['connector', 'push'],
        ['credentials', 'connect'],
        ['transactions', 'list'],
      ].map((words) => ({
        name: `bankctl ${[...words, '--help'].join(' ')}`,
        argv: [node, BIN, ...words, '--help'],
        limit: HELP_LIMIT,
      })),
      { name: 'npm-installed bankctl --version', argv: [installed, '--version'] },
      { name: 'npm-installed bankctl users create --help', argv: [installed, 'users', 'create', '--help'] },
      { name: 'single executable --version', argv: [sea, '--version'] },
      { name: 'single executable users create --help', argv: [sea, 'users', 'create', '--help'] },
    ];
    const times = cases.map(() => []);
    for (const c of cases) await runChild(c.argv, { env }); // warm the file cache
    for (let i = 0; i < runs; i++)
      for (let j = 0; j < cases.length; j++) times[j].push((await runChild(cases[j].argv, { env })).ms);
    const base = median(times[0]);
    const rows = cases.map((c, j) => {
      const ratio = median(times[j]) / base;
      return {
        case: c.name,
        'median ms': median(times[j]).toFixed(1),
        ratio: j === 0 ? '1.00' : ratio.toFixed(2),
        limit: c.limit ? `<= ${c.limit}x node -e 0` : '',
        ok: c.limit ? (ratio <= c.limit ? 'yes' : 'NO') : '',
      };
    });
    printTable(`Start-up (${runs} interleaved runs each, median)`, rows);

    // peak RSS: a plain command whose token is cached, against a detached sandbox
    execFileSync(node, [BIN, 'sandbox', 'start', '--detach', '--port', '0'], { env, stdio: 'ignore' });
    sandboxUp = true;
    execFileSync(node, [BIN, 'auth', 'token'], { env, stdio: 'ignore' }); // the token, cached
    const rssCases = [
      { name: 'node -e 0 (baseline)', argv: [node, '-e', '0'] },
      { name: 'bankctl auth token (token cached, sandbox)', argv: [node, BIN, 'auth', 'token'], limit: RSS_LIMIT },
    ];
    const rss = rssCases.map(() => []);
    for (let i = 0; i < rssRuns; i++)
      for (let j = 0; j < rssCases.length; j++) rss[j].push((await runChild(rssCases[j].argv, { env, preload })).rssMb);
    const rssBase = median(rss[0]);
    const rssRows = rssCases.map((c, j) => {
      const ratio = median(rss[j]) / rssBase;
      return {
        case: c.name,
        'peak RSS MB (median)': median(rss[j]).toFixed(1),
        ratio: j === 0 ? '1.00' : ratio.toFixed(2),
        limit: c.limit ? `<= ${c.limit}x the RSS of node -e 0` : '',
        ok: c.limit ? (ratio <= c.limit ? 'yes' : 'NO') : '',
      };
    });
    printTable(`Peak RSS (${rssRuns} interleaved runs each, median)`, rssRows);
    return [...rows, ...rssRows];
  } finally {
    if (sandboxUp) execFileSync(node, [BIN, 'sandbox', 'stop'], { env, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runStartup();
  if (rows.some((r) => r.ok === 'NO')) process.exitCode = 1;
}
