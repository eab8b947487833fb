// `npm run bench`: every suite of bench/, each measured against its own baseline in the same run
// (interleaved runs, medians), then one table of every row that holds a limit. It fails (exit 1)
// when any row is over its limit, and also when a suite throws or returns no rows: nothing is
// skipped, every tool a row needs comes from the project itself.
//
// `npm run bench -- startup push` runs only those suites (file names without .mjs).
//
// ---- Adding a row with a limit ------------------------------------------------------------------
// A suite is a module of bench/ exporting `async function runSomething(opts)` that measures, prints
// its own table(s) (printTable of lib.mjs) and returns its rows: an array of plain objects.
// A row that holds a limit has these three fields (any other columns are the suite's own):
//
//   case:  string  what was measured            'bankctl users create --help'
//   limit: string  the limit as a reader says it '<= 1.25x node -e 0', '>= 600,000 tx/s'
//   ok:    'yes' | 'NO' (or true | false)        whether this run held it
//
// A row without `ok` is context (a baseline, a size that has no limit) and is not checked.
// A row with `ok` but no `limit` fails the run: every limit is printed. Then add one line to SUITES:
//   ['yours.mjs', 'runSomething'],
// (a suite may also name the row's column with its own label: `case` falls back to its first column).
import { printTable } from './lib.mjs';

const SUITES = [
  ['startup.mjs', 'runStartup'],
  ['paging.mjs', 'runPaging'],
  ['push.mjs', 'runPush'],
  ['ingest.mjs', 'runIngest'],
  ['sandbox.mjs', 'runSandboxRps'],
  ['table.mjs', 'runTable'],
];

const only = process.argv.slice(2).map((a) => a.replace(/\.mjs$/, ''));
const checked = [];
const problems = [];
const okOf = (row) => (row.ok === true || row.ok === 'yes' ? 'yes' : row.ok === false || row.ok === 'NO' ? 'NO' : '');

for (const [file, fn] of SUITES) {
  const name = file.replace(/\.mjs$/, '');
  if (only.length && !only.includes(name)) continue;
  let rows;
  try {
    const mod = await import(new URL(file, import.meta.url).href);
    if (typeof mod[fn] !== 'function') throw new Error(`bench/${file} exports no ${fn}()`);
    rows = await mod[fn]({});
  } catch (err) {
    console.log(`\n${name}: FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    problems.push(`${name}: failed (see above)`);
    continue;
  }
  if (!Array.isArray(rows) || rows.length === 0) {
    problems.push(`${name}: no rows (a skipped suite counts as a failure)`);
    continue;
  }
  for (const row of rows) {
    const ok = okOf(row);
    if (!ok) continue;
    const label = String(row.case ?? row[Object.keys(row)[0]]);
    if (!row.limit) problems.push(`${name}: "${label}" has an ok but no limit`);
    checked.push({ suite: name, case: label, limit: row.limit ?? '(not stated)', ok });
  }
}

if (checked.length) printTable('Every limit of this run', checked);
const over = checked.filter((r) => r.ok === 'NO');
if (over.length || problems.length) {
  console.log('');
  for (const r of over) console.log(`over its limit: ${r.suite}: ${r.case} (${r.limit})`);
  for (const p of problems) console.log(p);
  process.exitCode = 1;
} else console.log(`\nAll ${checked.length} limits held.`);
