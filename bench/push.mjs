// `connector push` of N transactions from NDJSON into the sandbox (its own process), against a bare
// loop that posts the same 2500-transaction chunks with the same concurrency, in the same run.
// Also: the CLI's peak RSS (GNU time), and the sandbox's heap bytes per stored transaction.
// Runnable alone: node bench/push.mjs [N ...]   (default 100000 1000000)
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request, Agent } from 'undici';
import { BIN, ROOT, printTable } from './lib.mjs';

const ACCOUNTS = 3;
const CONCURRENCY = 4;
const CHUNK = 2500;

async function writeInput(file, n) {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const line = `{"account":"acc-${i % ACCOUNTS}","balance":${1000 + (i % ACCOUNTS)}.25,"externalId":"tx-${i}","amount":${i % 2 ? '-' : ''}${(i % 997) + 1}.${String(i % 100).padStart(2, '0')},"date":${1_600_000_000_000 + i * 1000},"description":"Merchant ${i % 500}","type":"DEFAULT"}\n`;
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
}

async function startSandboxProcess() {
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=8192', join(ROOT, 'bench', 'push-sandbox.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const it = lines[Symbol.asyncIterator]();
  const first = JSON.parse((await it.next()).value);
  const ask = async () => {
    child.stdin.write('heap\n');
    return JSON.parse((await it.next()).value);
  };
  const stop = async () => {
    child.stdin.end();
    await new Promise((r) => child.on('exit', r));
  };
  return { ...first, ask, stop };
}

async function setupUser(sb, user) {
  const h = { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' };
  const u = await fetch(`${sb.baseUrl}/connector/users`, { method: 'POST', headers: h, body: JSON.stringify({ externalId: user, token: 'bench', market: 'SE' }) });
  if (u.status !== 204) throw new Error(`users: ${u.status}`);
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => ({ externalId: `acc-${i}`, name: `A${i}`, number: `${i}`, balance: 0, type: 'CHECKING' }));
  const a = await fetch(`${sb.baseUrl}/connector/users/${user}/accounts`, { method: 'POST', headers: h, body: JSON.stringify({ accounts }) });
  if (a.status !== 204) throw new Error(`accounts: ${a.status}`);
}

/** The baseline: read lines, group 2500 into a container, POST with the same concurrency. */
async function bareLoop(sb, user, file) {
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const url = `${sb.baseUrl}/connector/users/${user}/transactions`;
  const headers = { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' };
  const inflight = new Set();
  let chunk = new Map();
  let count = 0;
  const balances = new Map();
  const flush = async () => {
    if (count === 0) return;
    const body = JSON.stringify({ type: 'HISTORICAL', transactionAccounts: [...chunk].map(([externalId, transactions]) => ({ externalId, balance: balances.get(externalId), transactions })) });
    chunk = new Map();
    count = 0;
    while (inflight.size >= CONCURRENCY) await Promise.race(inflight);
    const p = request(url, { method: 'POST', headers, body, dispatcher }).then(async (res) => {
      await res.body.dump();
      if (res.statusCode !== 204) throw new Error(`bare loop: HTTP ${res.statusCode}`);
    });
    const tracked = p.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  };
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  for await (const line of createInterface({ input: createReadStream(file, { highWaterMark: 1 << 20 }), crlfDelay: Infinity })) {
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
  const cpu = process.cpuUsage(cpu0);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuS: (cpu.user + cpu.system) / 1e6 };
}

/** Wall time, peak RSS and CPU seconds of a child, by GNU time. */
function timeChild(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%M %U %S', process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`push exited ${code}: ${stderr.slice(-500)}`));
      const [rss, user, sys] = stderr.trim().split('\n').pop().split(' ').map(Number);
      resolve({ ms, rssMb: rss / 1024, cpuS: user + sys });
    });
  });
}

export async function runPush({ sizes = [100_000, 1_000_000], log = console.log } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-bench-push-'));
  const rows = [];
  try {
    for (const n of sizes) {
      const file = join(dir, `tx-${n}.ndjson`);
      await writeInput(file, n);
      // the bare loop against a fresh sandbox
      let sb = await startSandboxProcess();
      await setupUser(sb, 'bare');
      const bare = await bareLoop(sb, 'bare', file);
      const bareMs = bare.ms;
      await sb.stop();
      // the CLI against a fresh sandbox; heap measured around it for bytes per transaction
      sb = await startSandboxProcess();
      await setupUser(sb, 'cli');
      const heap0 = await sb.ask();
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: sb.baseUrl, BANKCTL_CONNECTOR_TOKEN: sb.connectorToken };
      const cli = await timeChild([BIN, 'connector', 'push', '--user', 'cli', '--file', file, '--concurrency', String(CONCURRENCY), '--type', 'HISTORICAL', '-q'], env);
      const heap1 = await sb.ask();
      await sb.stop();
      if (heap1.transactions - heap0.transactions !== n) throw new Error(`the CLI stored ${heap1.transactions - heap0.transactions} of ${n}`);
      const ratio = cli.ms / bareMs;
      const row = {
        transactions: n,
        'bare loop s': (bareMs / 1000).toFixed(2),
        'cli s': (cli.ms / 1000).toFixed(2),
        ratio: ratio.toFixed(2),
        'cli tx/s': Math.round(n / (cli.ms / 1000)),
        'bare cpu s': bare.cpuS.toFixed(2),
        'cli cpu s': cli.cpuS.toFixed(2),
        'cli peak RSS MB': cli.rssMb?.toFixed(1) ?? 'n/a',
        'sandbox bytes/tx': Math.round((heap1.heapUsed - heap0.heapUsed) / n),
        ok: ratio <= 1.3 && (cli.rssMb === undefined || cli.rssMb < 150) ? 'yes' : 'NO',
      };
      rows.push(row);
      log?.(JSON.stringify(row));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(`connector push: CLI vs a bare loop (${CONCURRENCY} in flight, chunks of ${CHUNK}); targets: ratio <= 1.3, peak RSS < 150 MB`, rows);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number).filter((x) => x > 0);
  const rows = await runPush(sizes.length ? { sizes } : {});
  if (rows.some((r) => r.ok === 'NO')) process.exitCode = 1;
}
