// Drawing a table against writing csv for the same transactions (issue 20): `transactions list`'s
// own StreamWriter and columns, fed page by page (100 rows) as the command feeds them, to a
// discarding stream that is not a terminal (a pipe: no width limit), with --wide. The table must
// take at most 2x the csv's time and grow linearly with the rows (10k, 50k, 100k). Rendering only:
// the fetch both would share is left out, so the ratio is the table's own cost.
// Runnable alone: node bench/table.mjs [N ...]   (needs the devDependency esbuild).
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ROOT, median, printTable } from './lib.mjs';

const RATIO_LIMIT = 2;
/** Time per row at the largest N may be at most this times the time per row at the smallest. */
const LINEAR_LIMIT = 1.5;

async function loadRenderer() {
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-bench-table-'));
  const entry = join(dir, 'entry.ts');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    entry,
    `export { StreamWriter } from '${ROOT}src/output/render.ts';\nexport { TRANSACTION_COLUMNS } from '${ROOT}src/commands/transactions/list.ts';\n`,
  );
  const out = join(dir, 'render.mjs');
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  });
  const mod = await import(pathToFileURL(out).href);
  rmSync(dir, { recursive: true, force: true });
  return mod;
}

/** N transactions as the v2 API returns them. */
function transactions(n) {
  const out = [];
  const start = Date.UTC(2023, 0, 1);
  for (let i = 0; i < n; i++) {
    const date = new Date(start + Math.floor((i / n) * 1095) * 86_400_000).toISOString().slice(0, 10);
    const cents = (i % 997_300) + 1;
    out.push({
      id: (i * 2654435761).toString(16).padStart(32, '0').slice(-32),
      accountId: `a${i % 3}`.padEnd(32, '0'),
      amount: {
        currencyCode: 'SEK',
        value: { scale: '2', unscaledValue: `${i % 2 ? '-' : ''}${cents}` },
      },
      descriptions: { display: `Merchant ${i % 500}`, original: `MERCHANT ${i % 500}` },
      dates: { booked: date, value: date },
      status: i % 50 === 0 ? 'PENDING' : 'BOOKED',
      categories: { pfm: { id: 'c'.padEnd(32, '0'), name: i % 7 ? 'Groceries' : 'Restaurants and cafés' } },
      types: { type: 'DEFAULT' },
    });
  }
  return out;
}

function sink() {
  let bytes = 0;
  const stream = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk, _enc, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  return { stream, bytes: () => bytes };
}

async function renderOnce(mod, items, format) {
  const s = sink();
  const ctx = {
    io: { stdout: s.stream, stderr: s.stream, stdoutIsTTY: false, stderrIsTTY: false, env: {}, columns: 80 },
    env: {},
    globals: { wide: true },
    color: false,
    notice() {},
  };
  const started = process.hrtime.bigint();
  const w = new mod.StreamWriter(ctx, format, { columns: mod.TRANSACTION_COLUMNS });
  for (let i = 0; i < items.length; i += 100) await w.writeMany(items.slice(i, i + 100));
  await w.end();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: s.bytes() };
}

export async function runTable({ sizes = [10_000, 50_000, 100_000], rounds = 5 } = {}) {
  const mod = await loadRenderer();
  const rows = [];
  const perRow = [];
  for (const n of sizes) {
    const items = transactions(n);
    await renderOnce(mod, items.slice(0, 2000), 'table'); // warm-up
    await renderOnce(mod, items.slice(0, 2000), 'csv');
    const csv = [];
    const table = [];
    for (let r = 0; r < rounds; r++) {
      // interleaved: the same conditions for both
      csv.push((await renderOnce(mod, items, 'csv')).ms);
      table.push((await renderOnce(mod, items, 'table')).ms);
    }
    const c = median(csv);
    const t = median(table);
    perRow.push(t / n);
    rows.push({
      rows: n.toLocaleString('en'),
      'csv ms': c.toFixed(0),
      'table ms': t.toFixed(0),
      ratio: (t / c).toFixed(2),
      limit: `<= ${RATIO_LIMIT}`,
      'table us/row': ((t / n) * 1000).toFixed(2),
      linear: '',
      ok: t / c <= RATIO_LIMIT ? 'yes' : 'NO',
    });
  }
  const growth = perRow[perRow.length - 1] / perRow[0];
  const last = rows[rows.length - 1];
  last.linear = `${growth.toFixed(2)} (<= ${LINEAR_LIMIT})`;
  if (growth > LINEAR_LIMIT) last.ok = 'NO';
  printTable('Table rendering: transactions as a table (--wide, to a pipe) against -o csv, same rows', rows);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  const rows = await runTable(sizes.length ? { sizes } : {});
  if (rows.some((r) => r.ok === 'NO')) process.exitCode = 1;
}
