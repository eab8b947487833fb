// `connector push` of N transactions from NDJSON, against a bare loop that reads the same file and
// posts the same 2500-transaction chunks, each in its own process, interleaved, median of several
// rounds; every run against a fresh server in a third process:
// - into the sandbox, concurrency 4 (the target: within 1.2x at 1,000,000; peak RSS < 150 MB and
//   flat from 100,000 to 1,000,000);
// - concurrency: the CLI with --concurrency 4 against the bare loop sending one chunk at a time;
// - into a sink that reads and drops the bodies: the client side alone, beside the sandbox's own
//   CPU for the same transactions, so it shows which side limits the push.
// - `connector verify` of the largest N after its push: at most 1.2x the push's own time, peak RSS
//   at most 150 MB; beside it (no limit) a bare read-back of the same pages that only drops them, the
//   floor of any read-back: what the sandbox and the transport cost alone;
// - a push into the sink against a --dry-run of the same file: sending costs at most 0.2x reading.
// Each limit's ratio is the median of the rounds' own ratios (the two sides of a round run back to
// back), the times shown beside it the medians of each side.
// Runnable alone: node bench/push.mjs [N ...] [--rounds R] [--against DIR]   (default 100000
// 1000000, 3 rounds); needs `node scripts/build.mjs`. --against DIR adds the CLI of another
// checkout (built) to the same interleaved rounds: the before/after of a change, side by side.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BIN,
  CHUNK,
  CONCURRENCY,
  ROOT,
  benchAccount,
  benchBalance,
  benchDate,
  benchTransaction,
  median,
  ofRounds,
  printTable,
  setupUser,
} from './lib.mjs';

const SELF = fileURLToPath(import.meta.url);
const RATIO_LIMIT = 1.2;
const VERIFY_RATIO_LIMIT = 1.2;
const SINK_RATIO_LIMIT = 1.2;
const RSS_LIMIT_MB = 150;
/** Peak RSS may differ this much between the smallest and largest N and still count as flat. */
const FLAT_TOLERANCE_MB = 15;

async function writeInput(file, n) {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const line = `{"account":"${benchAccount(i)}","balance":${benchBalance(i)},${benchTransaction(i)}}\n`;
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
}

// ---- the servers, each in its own process ---------------------------------------------------------

/** Answers on stdin: "cpu" (CPU seconds so far), "stored" (transactions held), "heap" (after a full GC). */
async function control(answer) {
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = line.trim();
    if (cmd === 'cpu') {
      const u = process.cpuUsage();
      process.stdout.write(`${(u.user + u.system) / 1e6}\n`);
    } else if (cmd === 'heap') {
      for (let i = 0; i < 3; i++) globalThis.gc?.();
      // with the ArrayBuffers outside the JS heap (the request bodies the sandbox's store keeps)
      const m = process.memoryUsage();
      process.stdout.write(`${m.heapUsed + m.arrayBuffers}\n`);
    } else process.stdout.write(`${answer(cmd)}\n`);
  }
}

async function serveSandbox() {
  const { startSandbox } = await import(pathToFileURL(`${ROOT}dist/sandbox.js`).href);
  const sb = await startSandbox({ port: 0 });
  process.stdout.write(`${JSON.stringify({ baseUrl: sb.baseUrl, connectorToken: sb.connectorToken })}\n`);
  await control(() => sb.store.transactions.size);
  await sb.close();
}

/** Reads every body and answers 204: what a client costs when the server costs nothing. */
async function serveSink() {
  let bytes = 0;
  const srv = createServer((req, res) => {
    req.on('data', (c) => (bytes += c.length));
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  process.stdout.write(
    `${JSON.stringify({ baseUrl: `http://127.0.0.1:${srv.address().port}`, connectorToken: 'sink' })}\n`,
  );
  await control(() => bytes);
  srv.close();
}

async function startServer(kind) {
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', SELF, `--serve-${kind}`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const it = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const info = JSON.parse((await it.next()).value);
  return {
    ...info,
    async ask(cmd) {
      child.stdin.write(`${cmd}\n`);
      return Number((await it.next()).value);
    },
    async stop() {
      child.stdin.end();
      await new Promise((r) => child.on('exit', r));
    },
  };
}

// ---- the two clients ------------------------------------------------------------------------------

/** The baseline: read lines, group 2500 into a container by account, POST with the given concurrency. */
async function bareLoop(baseUrl, token, file, user, concurrency) {
  const { request, Agent } = await import(pathToFileURL(`${ROOT}node_modules/undici/index.js`).href);
  const dispatcher = new Agent({ connections: concurrency });
  const url = `${baseUrl}/connector/users/${user}/transactions`;
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
  const inflight = new Set();
  let chunk = new Map();
  let count = 0;
  const balances = new Map();
  const flush = async () => {
    if (count === 0) return;
    const body = JSON.stringify({
      type: 'BATCH',
      transactionAccounts: [...chunk].map(([externalId, transactions]) => ({
        externalId,
        balance: balances.get(externalId),
        transactions,
      })),
    });
    chunk = new Map();
    count = 0;
    while (inflight.size >= concurrency) await Promise.race(inflight);
    const p = request(url, { method: 'POST', headers, body, dispatcher }).then(async (res) => {
      await res.body.dump();
      if (res.statusCode !== 204) throw new Error(`bare loop: HTTP ${res.statusCode}`);
    });
    const tracked = p.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  };
  for await (const line of createInterface({
    input: createReadStream(file, { highWaterMark: 1 << 20 }),
    crlfDelay: Infinity,
  })) {
    if (!line) continue;
    const { account, balance, ...tx } = JSON.parse(line);
    balances.set(account, balance);
    let list = chunk.get(account);
    if (!list) chunk.set(account, (list = []));
    list.push(tx);
    if (++count === CHUNK) await flush();
  }
  await flush();
  await Promise.all(inflight);
  await dispatcher.close();
}

/**
 * The date ranges `connector verify` reads side by side for the bench file of n transactions: whole
 * days cut into `parts` ranges of about equal counts (push/verify.ts dateRanges, on the file's dates).
 */
function benchDateRanges(n, parts) {
  const perDay = new Map();
  for (let i = 0; i < n; i++) {
    const day = Math.floor(benchDate(i) / 86_400_000);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  const iso = (day) => new Date(day * 86_400_000).toISOString().slice(0, 10);
  const days = [...perDay].sort((a, b) => a[0] - b[0]);
  const last = days[days.length - 1][0];
  const out = [];
  let start = days[0][0];
  let seen = 0;
  for (const [day, count] of days) {
    seen += count;
    if (out.length === parts - 1 || day >= last) break;
    if (seen >= (n * (out.length + 1)) / parts) {
      out.push({ gte: iso(start), lte: iso(day) });
      start = day + 1;
    }
  }
  out.push({ gte: iso(start), lte: iso(last) });
  return out;
}

const NEXT = Buffer.from('"nextPageToken":"');
const ONE_TRANSACTION = Buffer.from('"accountId":"');

/**
 * The least a read-back costs: the same pages `connector verify` reads (100 each, its date ranges
 * side by side, a user token generated through the connector), each body read whole and dropped;
 * only the next page's token is taken from the bytes and the transactions counted. No checking and
 * no folding, so the time left is the service's and the transport's: a floor for verify.
 */
async function bareReadBack(baseUrl, connectorToken, user, n, concurrency) {
  const { request, Agent } = await import(pathToFileURL(`${ROOT}node_modules/undici/index.js`).href);
  const dispatcher = new Agent({ connections: concurrency });
  const g = await request(`${baseUrl}/connector/v2/tokens/generate`, {
    method: 'POST',
    headers: { authorization: `Token ${connectorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: user, scopes: ['transactions:read', 'accounts:read'], ttl: 900 }),
    dispatcher,
  });
  if (g.statusCode !== 200) throw new Error(`bare read-back: token: HTTP ${g.statusCode}`);
  const headers = { authorization: `Bearer ${(await g.body.json()).token}` };
  let transactions = 0;
  const range = async ({ gte, lte }) => {
    let token = '';
    for (;;) {
      const q = `pageSize=100&bookedDateGte=${gte}&bookedDateLte=${lte}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
      const res = await request(`${baseUrl}/data/v2/transactions?${q}`, { headers, dispatcher });
      const body = Buffer.from(await res.body.arrayBuffer());
      if (res.statusCode !== 200)
        throw new Error(`bare read-back: HTTP ${res.statusCode}: ${body.toString().slice(0, 200)}`);
      for (let i = body.indexOf(ONE_TRANSACTION); i >= 0; i = body.indexOf(ONE_TRANSACTION, i + 1)) transactions++;
      const at = body.lastIndexOf(NEXT);
      const end = at < 0 ? -1 : body.indexOf(0x22, at + NEXT.length);
      token = end < 0 ? '' : body.toString('latin1', at + NEXT.length, end);
      if (!token) return;
    }
  };
  await Promise.all(benchDateRanges(n, concurrency).map(range));
  await dispatcher.close();
  if (transactions !== n) throw new Error(`bare read-back: read ${transactions} of ${n} transactions`);
}

/** Wall time, peak RSS and CPU seconds of a child, by GNU time. */
function timeChild(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('time', ['-f', '%M %U %S', process.execPath, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${args.slice(0, 3).join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      const [rss, user, sys] = stderr.trim().split('\n').pop().split(' ').map(Number);
      resolve({ ms, rssMb: rss / 1024, cpuS: user + sys });
    });
  });
}

/** One push of file (n transactions) by 'bare' or 'cli' into a fresh 'sandbox' or 'sink'. */
async function runOnce({ client, server, file, n, concurrency, dir, heap = false, bin = BIN, extra = [] }) {
  const sv = await startServer(server);
  try {
    const user = 'bench';
    if (server === 'sandbox') await setupUser(sv, user);
    const heap0 = heap ? await sv.ask('heap') : 0;
    const cpu0 = await sv.ask('cpu');
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BANKCTL_CONFIG_DIR: dir,
      BANKCTL_BASE_URL: sv.baseUrl,
      BANKCTL_CONNECTOR_TOKEN: sv.connectorToken,
    };
    const push = [bin, 'connector', 'push', '--user', user, '--file', file, '--concurrency', String(concurrency)];
    const args =
      client === 'bare'
        ? [SELF, '--bare', sv.baseUrl, sv.connectorToken, file, user, String(concurrency)]
        : [...push, '--type', 'BATCH', '-q', ...extra];
    const r = await timeChild(args, env);
    if (client === 'verify') {
      // the push above filled the sandbox; now the read-back of the same file, timed on its own, and
      // after it the bare read-back of the same pages (the sandbox's read index is built by then, so
      // the floor it measures is, if anything, low)
      const c0 = await sv.ask('cpu');
      const v = await timeChild([bin, 'connector', 'verify', '--user', user, '--file', file, '-q', '-o', 'json'], env);
      const c1 = await sv.ask('cpu');
      const b = await timeChild(
        [SELF, '--read-back', sv.baseUrl, sv.connectorToken, user, String(n), String(concurrency)],
        env,
      );
      const c2 = await sv.ask('cpu');
      return {
        ...r,
        verifyMs: v.ms,
        verifyRssMb: v.rssMb,
        verifyCpuS: v.cpuS,
        verifyServerCpuS: c1 - c0,
        readBackMs: b.ms,
        readBackCpuS: b.cpuS,
        readBackServerCpuS: c2 - c1,
        serverCpuS: 0,
      };
    }
    const serverCpuS = (await sv.ask('cpu')) - cpu0;
    if (server === 'sandbox') {
      const stored = await sv.ask('stored');
      if (stored !== n) throw new Error(`${client} stored ${stored} of ${n}`);
    }
    const bytesPerTx = heap ? Math.round(((await sv.ask('heap')) - heap0) / n) : undefined;
    return { ...r, serverCpuS, bytesPerTx };
  } finally {
    await sv.stop();
  }
}

/** What a verify round measures beyond its push (runOnce), each reported as the rounds' median. */
const VERIFY_MEDIANS = [
  'verifyMs',
  'verifyCpuS',
  'verifyServerCpuS',
  'readBackMs',
  'readBackCpuS',
  'readBackServerCpuS',
];

/** Medians of rounds of interleaved runs, one series per named configuration. */
async function rounds(count, configs) {
  const runs = Object.fromEntries(Object.keys(configs).map((k) => [k, []]));
  for (let r = 0; r < count; r++)
    for (const [k, c] of Object.entries(configs)) runs[k].push(await runOnce({ ...c, heap: c.heap && r === 0 }));
  const med = {};
  for (const [k, list] of Object.entries(runs)) {
    med[k] = {
      ms: median(list.map((x) => x.ms)),
      cpuS: median(list.map((x) => x.cpuS)),
      serverCpuS: median(list.map((x) => x.serverCpuS)),
      rssMb: Math.max(...list.map((x) => x.rssMb)),
      bytesPerTx: list[0].bytesPerTx,
      // each round's own figures, for ratios taken round by round (see ofRounds in lib.mjs)
      list,
      // a verify round's own figures: medians, and the largest peak RSS
      ...(list[0].verifyMs === undefined
        ? {}
        : {
            ...Object.fromEntries(VERIFY_MEDIANS.map((key) => [key, median(list.map((x) => x[key]))])),
            verifyRssMb: Math.max(...list.map((x) => x.verifyRssMb)),
          }),
    };
  }
  return med;
}

const s = (ms) => (ms / 1000).toFixed(2);

/** The configurations of one size's rounds: the largest size also measures concurrency, sink, dry run and verify. */
function configsFor(base, largest, otherBin) {
  const c = { concurrency: CONCURRENCY };
  return {
    bare: { ...base, ...c, client: 'bare', server: 'sandbox' },
    cli: { ...base, ...c, client: 'cli', server: 'sandbox', heap: true },
    ...(largest
      ? {
          bareSeq: { ...base, client: 'bare', server: 'sandbox', concurrency: 1 },
          bareSink: { ...base, ...c, client: 'bare', server: 'sink' },
          cliSink: { ...base, ...c, client: 'cli', server: 'sink' },
          cliDry: { ...base, ...c, client: 'cli', server: 'sink', extra: ['--dry-run'] },
          verify: { ...base, ...c, client: 'verify', server: 'sandbox' },
        }
      : {}),
    ...(otherBin ? { other: { ...base, ...c, client: 'cli', server: 'sandbox', bin: otherBin } } : {}),
  };
}

function mainRow(n, m, largest, against) {
  const { ratio, spread } = ofRounds(m.cli.list.map((x, i) => x.ms / m.bare.list[i].ms));
  const row = {
    transactions: n,
    'bare s': s(m.bare.ms),
    'cli s': s(m.cli.ms),
    ratio: ratio.toFixed(2),
    spread,
    'cli tx/s': Math.round(n / (m.cli.ms / 1000)),
    'bare cpu s': m.bare.cpuS.toFixed(2),
    'cli cpu s': m.cli.cpuS.toFixed(2),
    'sandbox cpu s': m.cli.serverCpuS.toFixed(2),
    'cli peak RSS MB': m.cli.rssMb.toFixed(1),
    'sandbox B/tx': m.cli.bytesPerTx,
    // the ratio limit is the largest size's (at 100,000 the CLI's process start is a visible share)
    limit: largest
      ? `<= ${RATIO_LIMIT}x the bare loop, peak RSS < ${RSS_LIMIT_MB} MB`
      : `peak RSS < ${RSS_LIMIT_MB} MB`,
    ok: (!largest || ratio <= RATIO_LIMIT) && m.cli.rssMb < RSS_LIMIT_MB ? 'yes' : 'NO',
  };
  if (m.other) {
    row[`${against} s`] = s(m.other.ms);
    row[`${against} cpu s`] = m.other.cpuS.toFixed(2);
    row['this / that s'] = (m.cli.ms / m.other.ms).toFixed(2);
    row['this / that cpu'] = (m.cli.cpuS / m.other.cpuS).toFixed(2);
    row[`${against} RSS MB`] = m.other.rssMb.toFixed(1);
  }
  return row;
}

function extraRows(m) {
  const side = (name, x, vs, ok = '') => ({
    case: name,
    s: s(x.ms),
    'vs cli --concurrency 4': vs,
    'client cpu s': x.cpuS.toFixed(2),
    'server cpu s': x.serverCpuS.toFixed(2),
    limit: ok ? 'cli --concurrency 4 faster' : '',
    ok,
  });
  return [
    side(
      'bare loop, 1 chunk at a time',
      m.bareSeq,
      (m.cli.ms / m.bareSeq.ms).toFixed(2),
      m.cli.ms < m.bareSeq.ms ? 'yes' : 'NO',
    ),
    side('into a sink: bare loop', m.bareSink, ''),
    side('into a sink: cli', m.cliSink, ''),
    side('into a sink: cli --dry-run', m.cliDry, ''),
    side('into the sandbox: cli', m.cli, '1.00'),
  ];
}

function limitRows(n, m) {
  const v = m.verify;
  // a verify round pushes and then verifies: its ratio is its own
  const verify = ofRounds(v.list.map((x) => x.verifyMs / x.ms));
  const readBack = ofRounds(v.list.map((x) => x.readBackMs / x.ms));
  const sink = ofRounds(m.cliSink.list.map((x, i) => x.ms / m.cliDry.list[i].ms));
  const verifyRatio = verify.ratio;
  const sinkRatio = sink.ratio;
  return [
    {
      case: `connector verify of ${n}, beside its push`,
      s: s(v.verifyMs),
      'vs s': s(v.ms),
      ratio: verifyRatio.toFixed(2),
      spread: verify.spread,
      'client cpu s': v.verifyCpuS.toFixed(2),
      'server cpu s': v.verifyServerCpuS.toFixed(2),
      limit: `<= ${VERIFY_RATIO_LIMIT}`,
      'peak RSS MB': v.verifyRssMb.toFixed(1),
      'RSS limit MB': `<= ${RSS_LIMIT_MB}`,
      ok: verifyRatio <= VERIFY_RATIO_LIMIT && v.verifyRssMb <= RSS_LIMIT_MB ? 'yes' : 'NO',
    },
    {
      // context, no limit: the same pages read by a loop that only drops them, after the verify
      case: `bare read-back of the same pages (read and dropped), beside the push`,
      s: s(v.readBackMs),
      'vs s': s(v.ms),
      ratio: readBack.ratio.toFixed(2),
      spread: readBack.spread,
      'client cpu s': v.readBackCpuS.toFixed(2),
      'server cpu s': v.readBackServerCpuS.toFixed(2),
      limit: '',
      'peak RSS MB': '',
      'RSS limit MB': '',
      ok: '',
    },
    {
      case: `push of ${n} into a sink, beside a --dry-run`,
      s: s(m.cliSink.ms),
      'vs s': s(m.cliDry.ms),
      ratio: sinkRatio.toFixed(2),
      spread: sink.spread,
      'client cpu s': m.cliSink.cpuS.toFixed(2),
      'server cpu s': m.cliSink.serverCpuS.toFixed(2),
      limit: `<= ${SINK_RATIO_LIMIT}`,
      'peak RSS MB': m.cliSink.rssMb.toFixed(1),
      'RSS limit MB': '',
      ok: sinkRatio <= SINK_RATIO_LIMIT ? 'yes' : 'NO',
    },
  ];
}

function printAll(count, sizes, main, extra, limits) {
  const peaks = main.map((r) => Number(r['cli peak RSS MB']));
  const flat = Math.max(...peaks) - Math.min(...peaks) <= FLAT_TOLERANCE_MB;
  if (!flat) for (const r of main) r.ok = 'NO';
  printTable(
    `connector push into the sandbox vs a bare loop, ${CONCURRENCY} chunks of ${CHUNK} in flight, median of ${count}; ratio = median of the rounds' own cli/bare, spread = min-max (limits: ratio <= ${RATIO_LIMIT} at the largest size, peak RSS < ${RSS_LIMIT_MB} MB, flat within ${FLAT_TOLERANCE_MB} MB)`,
    main,
  );
  console.log(`peak RSS ${flat ? 'flat' : 'NOT flat'} across sizes: ${peaks.map((p) => p.toFixed(1)).join(' / ')} MB`);
  if (extra.length)
    printTable(
      `connector push of ${Math.max(...sizes)}: concurrency, and each side alone (a sink reads and drops the bodies; server cpu is the receiving process's)`,
      extra,
    );
  if (limits.length)
    printTable(
      "connector verify and the cost of sending, with their limits (ratio = median of the rounds' own ratios, spread = min-max; s and cpu: medians; server cpu s: the sandbox during that read, or the sink)",
      limits,
    );
}

export async function runPush({
  sizes = [100_000, 1_000_000],
  rounds: count = 3,
  log = console.log,
  against = process.env.BANKCTL_BENCH_AGAINST,
} = {}) {
  const otherBin = against ? join(against, 'bin', 'bankctl.js') : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-bench-push-'));
  const [main, extra, limits] = [[], [], []];
  try {
    for (const n of sizes) {
      const file = join(dir, `tx-${n}.ndjson`);
      await writeInput(file, n);
      const largest = n === Math.max(...sizes);
      const m = await rounds(count, configsFor({ file, n, dir }, largest, otherBin));
      main.push(mainRow(n, m, largest, against));
      log?.(JSON.stringify(main[main.length - 1]));
      if (!largest) continue;
      extra.push(...extraRows(m));
      limits.push(...limitRows(n, m));
      log?.(JSON.stringify([...extra, ...limits]));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printAll(count, sizes, main, extra, limits);
  return [...main, ...extra, ...limits];
}

if (process.argv[2] === '--serve-sandbox') await serveSandbox();
else if (process.argv[2] === '--serve-sink') await serveSink();
else if (process.argv[2] === '--read-back') {
  const [baseUrl, token, user, n, concurrency] = process.argv.slice(3);
  await bareReadBack(baseUrl, token, user, Number(n), Number(concurrency));
} else if (process.argv[2] === '--bare') {
  const [baseUrl, token, file, user, concurrency] = process.argv.slice(3);
  await bareLoop(baseUrl, token, file, user, Number(concurrency));
} else if (process.argv[1] && fileURLToPath(pathToFileURL(process.argv[1])) === SELF) {
  const args = process.argv.slice(2);
  const r = args.indexOf('--rounds');
  const count = r >= 0 ? Number(args.splice(r, 2)[1]) : 3;
  const a = args.indexOf('--against');
  const against = a >= 0 ? args.splice(a, 2)[1] : undefined;
  const sizes = args.map(Number).filter((x) => x > 0);
  const rows = await runPush({ ...(sizes.length ? { sizes } : {}), rounds: count, against });
  if (rows.some((row) => row.ok === 'NO')) process.exitCode = 1;
}
