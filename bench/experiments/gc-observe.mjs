// Diagnostic (not a bench row): how many collections a process ran, of which kind, and their time on
// the main thread, written as JSON to $GC_OBSERVE_DIR/gc-<pid>.json (default: the temp directory)
// when the process ends. Loaded into another process with --import, e.g. the sandbox's of the
// ingest bench: SANDBOX_NODE_ARGS="--import ./bench/experiments/gc-observe.mjs" node bench/ingest.mjs
// (docs/performance.md, 2026-12-02 from 15:32: 9 full collections and about 80 young ones a run of
// 1,000,000 transactions).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
const totals = {};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = KINDS[e.detail?.kind] ?? String(e.detail?.kind);
    totals[kind] ??= { count: 0, ms: 0 };
    totals[kind].count++;
    totals[kind].ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

const out = join(process.env.GC_OBSERVE_DIR ?? tmpdir(), `gc-${process.pid}.json`);
process.on('exit', () => {
  for (const t of Object.values(totals)) t.ms = Math.round(t.ms);
  writeFileSync(out, `${JSON.stringify(totals)}\n`);
});
// a server stopped with SIGTERM still writes its figures
process.once('SIGTERM', () => process.exit(0));
