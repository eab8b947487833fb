// Experiment (not a bench row): how fast could the sandbox's connector ingest be if it kept the
// request bodies as they came and indexed them, building no object per transaction? The sandbox
// today (src/sandbox/routes/connector.ts) parses each body into entities and stores one record object,
// one id string and two table entries per transaction: about 3.3 µs of CPU a transaction, a third of
// it garbage collection, against 1.04 for a bare node:http server that only JSON.parses the body.
// Issue 20 asks for 600,000 transactions a second (1.67 µs); bench/experiments/ingest-store.mjs
// showed no store of objects gets there.
//
// This prototype server keeps each body Buffer and, per transaction, its byte offsets (Int32Arrays)
// and its externalId in a per-user open-addressing table over the bytes (FNV-1a of the id's bytes,
// compared byte for byte): what a "lazy" store would do at ingest, records being made only when
// read. It validates the body's JSON grammar completely (strings, escapes, numbers, literals,
// nesting) and the shape it indexes (transactionAccounts[].transactions[].externalId, unique within
// the body and the user), but none of the field rules the sandbox checks (amount, date, type,
// lengths, payload): a lower bound for such a store, not a design.
//
// Measured exactly as bench/ingest.mjs measures the sandbox (its client process and bodies, 4 in
// flight, server CPU from process.cpuUsage()), beside its bare server in the same run.
// A third row runs the sandbox's own validating parser (src/sandbox/connector/ingest-body.ts, bundled
// on the fly) on each body before the prototype's scan: every field rule checked, the body read
// twice, so an upper bound for a lazy store behind today's parser.
// Run: node bench/experiments/ingest-lazy.mjs [N]   (default 1000000; needs the devDependency esbuild)
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleSource, childRole, median } from '../lib.mjs';
import { once as ingestOnce } from '../ingest.mjs';

const SELF = fileURLToPath(import.meta.url);
const INGEST = fileURLToPath(new URL('../ingest.mjs', import.meta.url));

// ---- the prototype store ------------------------------------------------------------------------

class Bad extends Error {}

/** Growable Int32Array columns. */
class Column {
  a = new Int32Array(1 << 16);
  n = 0;
  push(v) {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

/** A user's transactions: bodies kept whole, each transaction by (body, start, end, id start, id end). */
class LazyStore {
  bodies = [];
  body = new Column();
  start = new Column();
  end = new Column();
  idStart = new Column();
  idEnd = new Column();
  /** Open addressing: slot -> transaction index + 1 (0 = empty). */
  slots = new Int32Array(1 << 16);
  hashes = new Int32Array(1 << 16);
  size = 0;

  idEquals(k, buf, s, e) {
    const kb = this.bodies[this.body.a[k]];
    const ks = this.idStart.a[k];
    const ke = this.idEnd.a[k];
    if (ke - ks !== e - s) return false;
    return kb.compare(buf, s, e, ks, ke) === 0;
  }

  /** Whether an id (bytes s..e of buf, hash h) is held already. */
  has(buf, s, e, h) {
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const v = this.slots[i];
      if (v === 0) return false;
      if (this.hashes[i] === h && this.idEquals(v - 1, buf, s, e)) return true;
    }
  }

  insert(k, h) {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const mask = this.slots.length - 1;
    let i = h & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = k + 1;
    this.hashes[i] = h;
    this.size++;
  }

  grow() {
    const old = this.slots;
    const oldH = this.hashes;
    this.slots = new Int32Array(old.length * 2);
    this.hashes = new Int32Array(old.length * 2);
    const mask = this.slots.length - 1;
    for (let j = 0; j < old.length; j++) {
      if (old[j] === 0) continue;
      let i = oldH[j] & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = old[j];
      this.hashes[i] = oldH[j];
    }
  }
}

const fnv = (buf, s, e) => {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h | 0;
};

/** A validating scan of one body: every transaction's offsets, or Bad. Grammar: RFC 8259. */
class Scan {
  constructor(buf) {
    this.b = buf;
    this.i = 0;
    this.tx = []; // flat: start, end, idStart, idEnd
  }
  ws() {
    const b = this.b;
    let i = this.i;
    while (i < b.length) {
      const c = b[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
    return i < b.length ? b[i] : -1;
  }
  expect(c) {
    if (this.ws() !== c) throw new Bad();
    this.i++;
  }
  /** A string's content bytes [s, e) (escapes validated, not decoded). */
  string() {
    const b = this.b;
    if (this.ws() !== 0x22) throw new Bad();
    const s = ++this.i;
    let i = s;
    for (;;) {
      if (i >= b.length) throw new Bad();
      const c = b[i];
      if (c === 0x22) break;
      if (c < 0x20) throw new Bad();
      if (c === 0x5c) {
        const d = b[i + 1];
        if (d === 0x75) {
          for (let k = 2; k < 6; k++) {
            const h = b[i + k] | 0x20;
            if (!((h >= 0x30 && h <= 0x39) || (h >= 0x61 && h <= 0x66))) throw new Bad();
          }
          i += 6;
        } else if (
          d === 0x22 ||
          d === 0x5c ||
          d === 0x2f ||
          d === 0x62 ||
          d === 0x66 ||
          d === 0x6e ||
          d === 0x72 ||
          d === 0x74
        )
          i += 2;
        else throw new Bad();
      } else i++;
    }
    this.i = i + 1;
    this.se = i;
    return s;
  }
  number() {
    const b = this.b;
    let i = this.i;
    if (b[i] === 0x2d) i++;
    if (b[i] === 0x30) i++;
    else if (b[i] >= 0x31 && b[i] <= 0x39) while (b[i] >= 0x30 && b[i] <= 0x39) i++;
    else throw new Bad();
    if (b[i] === 0x2e) {
      i++;
      if (!(b[i] >= 0x30 && b[i] <= 0x39)) throw new Bad();
      while (b[i] >= 0x30 && b[i] <= 0x39) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++;
      if (b[i] === 0x2b || b[i] === 0x2d) i++;
      if (!(b[i] >= 0x30 && b[i] <= 0x39)) throw new Bad();
      while (b[i] >= 0x30 && b[i] <= 0x39) i++;
    }
    this.i = i;
  }
  literal(text) {
    for (let k = 0; k < text.length; k++) if (this.b[this.i + k] !== text.charCodeAt(k)) throw new Bad();
    this.i += text.length;
  }
  value(depth) {
    if (depth > 256) throw new Bad();
    const c = this.ws();
    if (c === 0x22) this.string();
    else if (c === 0x7b) this.object(depth, null);
    else if (c === 0x5b) {
      this.i++;
      if (this.ws() === 0x5d) return void this.i++;
      do this.value(depth + 1);
      while (this.more(0x5d));
    } else if (c === 0x74) this.literal('true');
    else if (c === 0x66) this.literal('false');
    else if (c === 0x6e) this.literal('null');
    else this.number();
  }
  more(close) {
    const c = this.ws();
    this.i++;
    if (c === 0x2c) return true;
    if (c === close) return false;
    throw new Bad();
  }
  is(s, e, word) {
    if (e - s !== word.length) return false;
    for (let k = 0; k < word.length; k++) if (this.b[s + k] !== word.charCodeAt(k)) return false;
    return true;
  }
  /** An object; onKey(s, e) may read the value itself and return true. */
  object(depth, onKey) {
    this.expect(0x7b);
    if (this.ws() === 0x7d) return void this.i++;
    do {
      const s = this.string();
      const e = this.se;
      this.expect(0x3a);
      if (!(onKey && onKey(s, e))) this.value(depth + 1);
    } while (this.more(0x7d));
  }
  body() {
    let accounts = false;
    this.object(0, (s, e) => {
      if (!this.is(s, e, 'transactionAccounts')) return false;
      accounts = true;
      this.expect(0x5b);
      if (this.ws() === 0x5d) {
        this.i++;
        return true;
      }
      do this.account();
      while (this.more(0x5d));
      return true;
    });
    if (!accounts || this.ws() !== -1) throw new Bad();
  }
  account() {
    this.object(1, (s, e) => {
      if (!this.is(s, e, 'transactions')) return false;
      this.expect(0x5b);
      if (this.ws() === 0x5d) {
        this.i++;
        return true;
      }
      do this.transaction();
      while (this.more(0x5d));
      return true;
    });
  }
  transaction() {
    const start = this.ws();
    const at = this.i;
    let idS = -1;
    let idE = -1;
    this.object(2, (s, e) => {
      if (!this.is(s, e, 'externalId')) return false;
      if (idS >= 0) throw new Bad();
      idS = this.string();
      idE = this.se;
      return true;
    });
    if (start !== 0x7b || idS < 0) throw new Bad();
    this.tx.push(at, this.i, idS, idE);
  }
}

/** Ingest of one body into store: all or nothing; false when refused. */
function ingest(store, buf) {
  const scan = new Scan(buf);
  try {
    scan.body();
  } catch (e) {
    if (e instanceof Bad) return false;
    throw e;
  }
  const t = scan.tx;
  const n = t.length / 4;
  const hashes = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const h = (hashes[k] = fnv(buf, t[4 * k + 2], t[4 * k + 3]));
    if (store.has(buf, t[4 * k + 2], t[4 * k + 3], h)) return false;
  }
  const b = store.bodies.length;
  store.bodies.push(buf);
  for (let k = 0; k < n; k++) {
    const idx = store.body.n;
    store.body.push(b);
    store.start.push(t[4 * k]);
    store.end.push(t[4 * k + 1]);
    store.idStart.push(t[4 * k + 2]);
    store.idEnd.push(t[4 * k + 3]);
    // a repeat within the body is found here, against the ones inserted before it
    if (store.has(buf, t[4 * k + 2], t[4 * k + 3], hashes[k])) {
      store.body.n = store.start.n = store.end.n = store.idStart.n = store.idEnd.n = idx;
      // (a real store would undo the inserts of this body; the bench sends no repeats)
      return false;
    }
    store.insert(idx, hashes[k]);
  }
  return true;
}

// ---- the processes --------------------------------------------------------------------------------

async function serveLazy(parserFile) {
  const store = new LazyStore();
  // with the sandbox's own parser first: every field rule checked (its entities made and dropped),
  // then the prototype's scan and index as before (the body read twice: an upper bound)
  const parse = parserFile ? (await import(pathToFileURL(parserFile).href)).parseIngestBody : undefined;
  const srv = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const ok = (!parse || parse(body) !== undefined) && ingest(store, body);
      res.writeHead(ok ? 204 : 400);
      res.end();
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  process.stdout.write(
    `${JSON.stringify({ baseUrl: `http://127.0.0.1:${srv.address().port}`, connectorToken: 'lazy' })}\n`,
  );
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = line.trim();
    if (cmd === 'cpu') process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
    else if (cmd === 'heap') {
      for (let i = 0; i < 3; i++) globalThis.gc?.();
      const m = process.memoryUsage();
      // the bodies are outside the heap: counted here, as a store of them would have to be
      process.stdout.write(
        `${JSON.stringify({ heapUsed: m.heapUsed + m.arrayBuffers, transactions: store.body.n })}\n`,
      );
    }
  }
  srv.closeAllConnections();
  srv.close();
}

async function onceLazy(cl, n, parserFile) {
  const args = parserFile ? ['--serve-lazy', parserFile] : ['--serve-lazy'];
  const server = await childRole(SELF, args, ['--expose-gc', '--max-old-space-size=8192']);
  try {
    const { baseUrl } = server.first;
    const heap0 = await server.ask('heap');
    const cpu0 = await server.ask('cpu');
    const { ms } = await cl.ask(
      JSON.stringify({ url: `${baseUrl}/connector/users/bench/transactions`, token: 'lazy', count: n }),
    );
    const cpu1 = await server.ask('cpu');
    const heap1 = await server.ask('heap');
    if (heap1.transactions - heap0.transactions !== n) throw new Error(`stored ${heap1.transactions} of ${n}`);
    return {
      ms,
      cpuMs: (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1000,
      bytesPerTx: (heap1.heapUsed - heap0.heapUsed) / n,
    };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === SELF) {
  if (process.argv[2] === '--serve-lazy') await serveLazy(process.argv[3]);
  else {
    const n = Number(process.argv[2] ?? 1_000_000);
    // the sandbox's parser (src/sandbox/connector/ingest-body.ts), bundled on the fly
    const dir = mkdtempSync(join(tmpdir(), 'bankctl-ingest-lazy-'));
    const parserFile = join(dir, 'ingest-body.mjs');
    await bundleSource('src/sandbox/connector/ingest-body.ts', parserFile);
    const cl = await childRole(INGEST, ['--client', String(n)], ['--max-old-space-size=4096']);
    const bare = [];
    const lazy = [];
    const parsed = [];
    try {
      for (let r = 0; r < 3; r++) {
        bare.push(await ingestOnce('bare', cl, n));
        lazy.push(await onceLazy(cl, n));
        parsed.push(await onceLazy(cl, n, parserFile));
      }
    } finally {
      await cl.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const row = (runs) => ({
      'tx/s': Math.round(median(runs.map((r) => n / (r.ms / 1000)))),
      'CPU µs/tx': median(runs.map((r) => (r.cpuMs * 1000) / n)).toFixed(2),
      'bytes/tx': runs[0].bytesPerTx === undefined ? '-' : Math.round(median(runs.map((r) => r.bytesPerTx))),
    });
    console.log(`ingest of ${n} (median of 3 each, interleaved)`);
    console.log('bare node:http + JSON.parse      ', JSON.stringify(row(bare)));
    console.log('lazy store (bodies + byte index) ', JSON.stringify(row(lazy)));
    console.log("the same after the sandbox's parser", JSON.stringify(row(parsed)));
  }
}
