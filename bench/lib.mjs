// Shared helpers for the benchmarks: timing child processes, medians, peak RSS, a table.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = `${ROOT}bin/bankctl.js`;
/** The built sandbox the benchmarks start; SANDBOX_MODULE names another build (to compare two). */
export const SANDBOX_MODULE = pathToFileURL(process.env.SANDBOX_MODULE ?? `${ROOT}dist/sandbox.js`).href;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * A limit's ratio from each round's own ratio: their median, and their spread as min-max text. The
 * two sides of a round run back to back and share what the machine is doing then; a ratio of two
 * medians would pair one round's numerator with another round's denominator.
 */
export function ofRounds(ratios) {
  return { ratio: median(ratios), spread: `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}` };
}

/**
 * Bundles one module of src (e.g. 'src/sandbox/connector/ingest-body.ts') with what it imports into
 * one ES module at outfile, for an experiment that measures a piece of the sandbox on its own.
 * Needs the devDependency esbuild.
 */
export async function bundleSource(source, outfile) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [`${ROOT}${source}`],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'warning',
  });
}

/**
 * Runs a command to completion and returns its wall time (ms) and peak RSS (MB), measured by
 * GNU time when present (the child's own maximum resident set), else by resourceUsage of node.
 */
export function timeCommand(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const useTime = opts.rss && process.platform === 'linux';
    const argv = useTime ? ['-f', '%M', cmd, ...args] : args;
    const child = spawn(useTime ? 'time' : cmd, argv, {
      stdio: ['ignore', opts.stdout ?? 'ignore', 'pipe'],
      env: opts.env ?? process.env,
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0 && !opts.allowFail)
        return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      let rssMb;
      if (useTime) {
        const lines = stderr.trim().split('\n');
        rssMb = Number(lines[lines.length - 1]) / 1024;
      }
      resolve({ ms, rssMb, stderr });
    });
  });
}

export function printTable(title, rows) {
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(headers.map((h) => r[h])));
}

// ---- the connector input of bench/push.mjs and bench/ingest.mjs ---------------------------------

export const ACCOUNTS = 3;
export const CONCURRENCY = 4;
export const CHUNK = 2500;

/** The date (epoch ms) of transaction i of the push benchmarks: one a second. */
export const benchDate = (i) => 1_600_000_000_000 + i * 1000;

/** Transaction i of the push benchmarks, as its wire JSON: on account acc-(i % ACCOUNTS). */
export function benchTransaction(i) {
  return `"externalId":"tx-${i}","amount":${i % 2 ? '-' : ''}${(i % 997) + 1}.${String(i % 100).padStart(2, '0')},"date":${benchDate(i)},"description":"Merchant ${i % 500}","type":"DEFAULT"`;
}

export const benchAccount = (i) => `acc-${i % ACCOUNTS}`;
export const benchBalance = (i) => `${1000 + (i % ACCOUNTS)}.25`;

/** Activates user on a sandbox and gives it the ACCOUNTS accounts, through the connector API. */
export async function setupUser(sb, user) {
  const h = { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' };
  const u = await fetch(`${sb.baseUrl}/connector/users`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ externalId: user, token: 'bench', market: 'SE' }),
  });
  if (u.status !== 204) throw new Error(`users: ${u.status}`);
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({
    externalId: `acc-${i}`,
    name: `A${i}`,
    number: `${i}`,
    balance: 0,
    type: 'CHECKING',
  }));
  const a = await fetch(`${sb.baseUrl}/connector/users/${user}/accounts`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ accounts }),
  });
  if (a.status !== 204) throw new Error(`accounts: ${a.status}`);
}

// ---- child processes of a bench file in a role ---------------------------------------------------

/**
 * Starts `[wrap] node [nodeArgs] file [args]` with a line protocol: each stdout line is one JSON value.
 * `first` is its first line (unless firstLine is false); ask(line) writes a line and reads one.
 */
export async function childRole(file, args, nodeArgs = [], { firstLine = true, env = process.env, wrap = [] } = {}) {
  // wrap: a command that runs node (valgrind ... for bench/instructions.mjs)
  const argv = [...wrap, process.execPath, ...nodeArgs, file, ...args];
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'inherit'], env });
  const it = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((_, reject) =>
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`))),
  );
  exited.catch(() => undefined);
  const read = async () => {
    const r = await Promise.race([it.next(), exited]);
    if (r.done) throw new Error(`${args.join(' ')} closed its output`);
    return JSON.parse(r.value);
  };
  const first = firstLine ? await read() : undefined;
  const ask = (line) => {
    proc.stdin.write(`${line}\n`);
    return read();
  };
  const stop = async () => {
    proc.removeAllListeners('exit');
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((r) => proc.once('exit', r));
    proc.stdin.end();
    await gone;
  };
  return { first, ask, stop, pid: proc.pid };
}
