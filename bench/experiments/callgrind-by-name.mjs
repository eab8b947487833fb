// Not a bench row: a callgrind dump's instructions by function, JIT code named from the perf map
// V8 writes with --perf-basic-prof (callgrind shows that code as bare addresses), per request.
//   node bench/experiments/callgrind-by-name.mjs <dump> </tmp/perf-PID.map> [requests]
//   INCL=1: inclusive counts (a function and what it calls); TOP=n rows (default 60)
// The dumps come from version-instructions.mjs or bench/instructions.mjs with CALLGRIND_KEEP=1 and
// SANDBOX_NODE_ARGS=--perf-basic-prof (each prints where they were kept).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [file, map, requestsArg] = process.argv.slice(2);
const requests = Number(requestsArg ?? 1);
const ranges = readFileSync(map, 'utf8')
  .trim()
  .split('\n')
  .map((l) => {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l);
    return { start: parseInt(m[1], 16), end: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3] };
  })
  .sort((a, b) => a.start - b.start);

function lookup(addr) {
  let lo = 0;
  let hi = ranges.length - 1;
  let best;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid].start <= addr) {
      best = ranges[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best && addr < best.end ? best.name : undefined;
}

const out = execFileSync(
  'callgrind_annotate',
  [process.env.INCL ? '--inclusive=yes' : '--inclusive=no', '--threshold=100', file],
  { maxBuffer: 1 << 28 },
).toString();
const byName = new Map();
for (const line of out.split('\n')) {
  const m = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(line);
  if (!m) continue;
  const n = Number(m[1].replace(/,/g, ''));
  let name = m[2].trim();
  if (name.includes('PROGRAM TOTALS')) {
    console.log(`total ${Math.round(n / requests)} a request`);
    continue;
  }
  const a = /0x([0-9a-f]+)/.exec(name);
  if (a && name.startsWith('???')) name = lookup(parseInt(a[1], 16)) ?? 'JIT code not in the map';
  name = name.replace(/\s*\[.*\]$/, '');
  byName.set(name, (byName.get(name) ?? 0) + n);
}
for (const [name, n] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 60)))
  console.log(String(Math.round(n / requests)).padStart(8), name.slice(0, 150));
