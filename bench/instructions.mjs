// Instructions per request on each server's main thread, counted by callgrind: the sandbox's request
// path against the bare node:http server of bench/sandbox.mjs (same processes, same requests, same
// load generator). Each server is sent the same fixed number of requests, first to warm it (its hot
// functions optimized), then, with callgrind's counters zeroed, the counted ones, one connection
// at a time by default (one request read, parsed and answered per wake-up of its event loop). Until
// 2026-12-02 the load was paced by wall time: on a loaded machine the sandbox served 996 requests in
// the counted window against the bare server's 3,209, and bare/sandbox read 0.75 where a quiet run
// gave ~0.96; the number of requests and the per-wake-up work no longer depend on the load.
// Not shown yet: that the result is load-proof. The optimizing compiler runs on helper threads, so
// how much of a short warm-up runs optimized code still depends on the CPU they get: 3,000 warm-up
// requests left both servers at 115,000 to 126,000 instructions a request (quiet, warmed runs: 56,000
// to 72,000), so use the default warm-up or more (docs/performance.md, 2026-12-02).
//
// Not part of `npm run bench`: it needs valgrind and takes minutes (everything runs ~50x slower).
// The count covers only the counted requests (and the closing of their connections), on thread 1
// (JavaScript, the parser, the socket writes; compiler and GC helper threads are left out, the same
// for both). With more than one connection, how many requests a wake-up finds depends on the
// scheduling again: use it to look at batching, not to compare builds.
//   node bench/instructions.mjs [warm requests] [counted requests] [connections]   (default 20000 5000 1)
// (needs `node scripts/build.mjs`; RATE_CASES=version or transactions measures one case;
// CALLGRIND_KEEP=1 keeps the dumps, SANDBOX_NODE_ARGS=--perf-basic-prof names their JIT code for
// bench/experiments/callgrind-by-name.mjs)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable } from './lib.mjs';
import { startRateServers } from './sandbox.mjs';

const [warmN = 20000, countN = 5000, connections = 1] = process.argv.slice(2).map(Number);
if (![warmN, countN, connections].every((n) => Number.isInteger(n) && n > 0) || countN < connections) {
  console.error('usage: node bench/instructions.mjs [warm requests] [counted requests] [connections]');
  process.exit(2);
}
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('bench/instructions.mjs needs valgrind (apt-get install valgrind)');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'bankctl-callgrind-'));
const wrap = [
  'valgrind',
  '--tool=callgrind',
  '-q',
  '--separate-threads=yes',
  '--smc-check=all-non-file',
  `--callgrind-out-file=${join(dir, 'cg.%p')}`,
];

/** The main thread's instruction count in the dump that callgrind_control -d just wrote for pid. */
function dumped(pid, part) {
  const file = readdirSync(dir).find((f) => f === `cg.${pid}.${part}-01`);
  if (!file) throw new Error(`no callgrind dump ${part} for ${pid} in ${dir}`);
  const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
  if (!m) throw new Error(`no totals in ${file}`);
  return Number(m[1]);
}

const { servers, cases, gen, loadOf, stop } = await startRateServers({ wrap });
const rows = [];
try {
  for (const [k, c] of cases.entries()) {
    const counts = {};
    for (const s of servers) {
      const run = async (count) => {
        const r = await gen.ask(JSON.stringify(loadOf(c, s, undefined, { count, connections })));
        if (r.error) throw new Error(r.error);
        return r;
      };
      await run(warmN);
      execFileSync('callgrind_control', ['-z', String(s.proc.pid)], { stdio: 'ignore' });
      const { requests, ms } = await run(countN);
      execFileSync('callgrind_control', ['-d', String(s.proc.pid)], { stdio: 'ignore' });
      // each server's k-th case is its dump k + 1
      counts[s.name] = { requests, ms, perRequest: dumped(s.proc.pid, k + 1) / requests };
    }
    for (const s of servers)
      rows.push({
        request: c.name,
        server: s.name === 'bare' ? 'bare node:http (baseline)' : 'sandbox',
        requests: counts[s.name].requests,
        'req/s (under callgrind)': Math.round(counts[s.name].requests / (counts[s.name].ms / 1000)),
        'instructions/req': Math.round(counts[s.name].perRequest),
        'bare/this': (counts.bare.perRequest / counts[s.name].perRequest).toFixed(3),
      });
  }
} finally {
  await stop();
  // CALLGRIND_KEEP=1 keeps the dumps (cg.<pid>.<case>-01; with SANDBOX_NODE_ARGS=--perf-basic-prof,
  // /tmp/perf-<pid>.map names the JIT code in them) for bench/experiments/callgrind-by-name.mjs
  if (process.env.CALLGRIND_KEEP === '1') console.log(`callgrind dumps kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
printTable(
  `Main-thread instructions per request under callgrind (${warmN} warm-up and ${countN} counted requests per server and case, ${connections} connection(s))`,
  rows,
);
