// Instructions per request on each server's main thread, counted by callgrind: the sandbox's request
// path against the bare node:http server of bench/sandbox.mjs (same processes, same requests, same
// load generator), as a number the machine's load does not move. The rate rows swing by 15% from
// round to round on a shared 2-core machine; these counts repeat within about 3%, so a change of
// a few hundred instructions per request can be seen before it is sent to the rate rows.
//
// Not part of `npm run bench`: it needs valgrind and takes minutes (everything runs ~50x slower).
// Each server is warmed (its hot functions optimized) before the counters are zeroed; the count
// covers only the requests of the measured run, on thread 1 (JavaScript, the parser, the socket
// writes; compiler and GC helper threads are left out, the same for both).
//   node bench/instructions.mjs [warm seconds] [measured seconds]    (default 90 20)
// (needs `node scripts/build.mjs`; RATE_CASES=version measures one case)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable } from './lib.mjs';
import { startRateServers } from './sandbox.mjs';

const [warmS = 90, countS = 20] = process.argv.slice(2).map(Number);
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
      const run = async (seconds) => {
        const r = await gen.ask(JSON.stringify(loadOf(c, s, seconds * 1000)));
        if (r.error) throw new Error(r.error);
        return r.requests;
      };
      await run(warmS);
      execFileSync('callgrind_control', ['-z', String(s.proc.pid)], { stdio: 'ignore' });
      const requests = await run(countS);
      execFileSync('callgrind_control', ['-d', String(s.proc.pid)], { stdio: 'ignore' });
      // each server's k-th case is its dump k + 1
      counts[s.name] = { requests, perRequest: dumped(s.proc.pid, k + 1) / requests };
    }
    for (const s of servers)
      rows.push({
        request: c.name,
        server: s.name === 'bare' ? 'bare node:http (baseline)' : 'sandbox',
        requests: counts[s.name].requests,
        'instructions/req': Math.round(counts[s.name].perRequest),
        'bare/this': (counts.bare.perRequest / counts[s.name].perRequest).toFixed(3),
      });
  }
} finally {
  await stop();
  // CALLGRIND_KEEP=1 keeps the dumps (with SANDBOX_NODE_ARGS=--perf-basic-prof, /tmp/perf-<pid>.map
  // names the JIT code in them) for callgrind_annotate
  if (process.env.CALLGRIND_KEEP === '1') console.log(`callgrind dumps kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
printTable(
  `Main-thread instructions per request under callgrind (warm ${warmS}s, counted ${countS}s per server and case)`,
  rows,
);
