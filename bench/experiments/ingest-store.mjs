// An experiment, not a bench row (issue 20's ingest limit): what storing a parsed connector
// transaction costs under other layouts than the sandbox's, with no HTTP and nothing else around.
// Every layout reads the same bodies with the sandbox's own byte parser (src/sandbox/connector/
// ingest-body.ts, bundled on the fly) and keeps what the layout keeps; "parse only" keeps nothing.
// Each layout runs in a fresh process, the layouts interleaved, RUNS times; printed: the median CPU
// µs per transaction (all threads, so the collector's helpers count) and heap bytes per transaction
// after a full GC.
// Run: node bench/experiments/ingest-store.mjs [N]   (default 500000)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildBodies } from '../ingest.mjs';
import { bundleSource, median, printTable } from '../lib.mjs';

const SELF = fileURLToPath(import.meta.url);
const RUNS = 3;

const LAYOUTS = {
  'parse only': () => {
    let n = 0;
    return { size: () => n, add: () => void n++ };
  },
  // what the sandbox did before 2026-12-01: a record object per transaction, a Map by id, an index by externalId
  'objects, Map by id (before)': (env) => objects(env, new Map()),
  // the same records, the ids in the open-addressing StringMap the externalIds use (the sandbox now)
  'objects, StringMap by id (now)': (env) => objects(env, new env.Index()),
  // the records with no look-up by id at all (a lower bound for any id index)
  'objects, no id look-up': ({ Index, record }) => {
    const rows = [];
    const byExt = new Index();
    return {
      size: () => rows.length,
      add(t, acc) {
        const rec = record(t, acc);
        rows.push(rec);
        byExt.set(t.externalId, rec);
      },
    };
  },
  // no object per record: the strings in arrays, the rest in typed arrays; ids kept and indexed
  'columns, ids indexed': (env) => columns(env, true),
  // ... and ids derived from the row (made when read), so no id string and no id index
  'columns, ids derived': (env) => columns(env, false),
};

function objects({ Index, record }, byId) {
  const byExt = new Index();
  return {
    size: () => byId.size,
    add(t, acc) {
      const rec = record(t, acc);
      byId.set(rec.id, rec);
      byExt.set(t.externalId, rec);
    },
  };
}

function columns({ Index, nextId }, withIds) {
  let cap = 1024;
  let n = 0;
  const ids = [];
  const extIds = [];
  const amounts = [];
  const descriptions = [];
  let day = new Int32Array(cap);
  let account = new Int32Array(cap);
  let flags = new Uint8Array(cap);
  let created = new Float64Array(cap);
  const byId = new Index();
  const byExt = new Index();
  const accounts = new Map();
  const grown = (a) => {
    const b = new a.constructor(cap);
    b.set(a);
    return b;
  };
  return {
    size: () => n,
    add(t, acc) {
      if (n === cap) {
        cap *= 2;
        [day, account, flags, created] = [grown(day), grown(account), grown(flags), grown(created)];
      }
      const r = n++;
      if (withIds) {
        const id = nextId();
        ids.push(id);
        byId.set(id, r);
      }
      extIds.push(t.externalId);
      amounts.push(t.amount);
      descriptions.push(t.description);
      day[r] = Math.floor(t.date / 86_400_000);
      let a = accounts.get(acc);
      if (a === undefined) accounts.set(acc, (a = accounts.size));
      account[r] = a;
      flags[r] = t.pending ? 1 : 0;
      created[r] = Date.now();
      byExt.set(t.externalId, r);
    },
  };
}

/** One run of one layout in this process (a child): prints {us, bytes}. */
async function child(dir, layout, n) {
  const { parseIngestBody } = await import(pathToFileURL(join(dir, 'ingest-body.mjs')).href);
  const { StringMap: Index } = await import(pathToFileURL(join(dir, 'string-map.mjs')).href);
  let pool = Buffer.alloc(0);
  let at = 0;
  const nextId = () => {
    if (at + 16 > pool.length) [pool, at] = [randomBytes(4096), 0];
    at += 16;
    return pool.toString('hex', at - 16, at);
  };
  const days = new Map();
  const isoDay = (ms) => {
    const d = Math.floor(ms / 86_400_000);
    let s = days.get(d);
    if (s === undefined) days.set(d, (s = new Date(d * 86_400_000).toISOString().slice(0, 10)));
    return s;
  };
  let seq = 0;
  // the fields of the sandbox's TransactionRecord for a plain connector transaction
  const record = (t, acc) => {
    const day = isoDay(t.date);
    const now = Date.now();
    return {
      id: nextId(),
      userId: 'user',
      accountId: acc,
      externalId: t.externalId,
      amount: t.amount,
      currencyCode: 'SEK',
      bookedDate: day,
      valueDate: day,
      description: t.description,
      originalDescription: t.description,
      categoryId: 'uncategorized',
      status: t.pending ? 'PENDING' : 'BOOKED',
      type: t.type,
      seq: ++seq,
      created: now,
      updated: now,
    };
  };
  const bodies = buildBodies(n);
  const store = LAYOUTS[layout]({ Index, record, nextId });
  for (let i = 0; i < 3; i++) globalThis.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const cpu0 = process.cpuUsage();
  for (const b of bodies) {
    const c = parseIngestBody(b);
    for (const ta of c.transactionAccounts) for (const t of ta.transactions) store.add(t, ta.externalId);
  }
  const cpu = process.cpuUsage(cpu0);
  for (let i = 0; i < 3; i++) globalThis.gc();
  if (store.size() !== n) throw new Error(`${layout} kept ${store.size()} of ${n}`);
  const heap = process.memoryUsage().heapUsed - heap0;
  process.stdout.write(JSON.stringify({ us: (cpu.user + cpu.system) / n, bytes: heap / n }));
}

async function main(n) {
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-ingest-store-'));
  try {
    for (const name of ['connector/ingest-body', 'string-map'])
      await bundleSource(`src/sandbox/${name}.ts`, join(dir, `${name.split('/').pop()}.mjs`));
    const runs = Object.fromEntries(Object.keys(LAYOUTS).map((l) => [l, []]));
    for (let r = 0; r < RUNS; r++)
      for (const layout of Object.keys(LAYOUTS)) {
        const args = ['--expose-gc', '--max-old-space-size=8192', SELF, '--child', dir, layout, String(n)];
        const p = spawnSync(process.execPath, args, { encoding: 'utf8' });
        if (p.status !== 0) throw new Error(`${layout}: ${p.stderr}`);
        runs[layout].push(JSON.parse(p.stdout));
      }
    const base = median(runs['parse only'].map((x) => x.us));
    printTable(
      `Storing ${n} parsed connector transactions (no HTTP; median of ${RUNS} runs; µs = CPU per transaction)`,
      Object.entries(runs).map(([layout, xs]) => {
        const us = median(xs.map((x) => x.us));
        return {
          layout,
          'µs/tx': us.toFixed(2),
          'beyond parsing': (us - base).toFixed(2),
          'heap bytes/tx': Math.round(median(xs.map((x) => x.bytes))),
        };
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], Number(process.argv[5]));
else await main(Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 500_000);
