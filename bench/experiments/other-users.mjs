// Experiment (not a bench row): does one user's request cost more when the sandbox holds many
// transactions of other users? It did: ten places in src/sandbox walked every transaction to find one
// user's (statistics, insights and budgets data, refresh events, reports, triggers, deletions), so a
// connector user with a million transactions made another user's statistics query take 0.87 s
// against 0.18 in an empty sandbox (by hand, through the CLI). The store now keeps each user's
// records (TransactionTable.ofUser); this measures it in one process, without the CLI's start-up.
//
// For each size of the other user's data (0, then N): a sandbox, user "big" with that many
// transactions pushed through the connector (bench/ingest.mjs buildBodies), user "small" with 300 over
// 3 accounts, a user token for "small" from the connector's token endpoint, and the median of 15
// POST /api/v1/statistics/query (balances-by-account, monthly) for "small", after 10 to warm up.
// Measured 2026-12-02: 369.55 ms a query beside a million (2.49 alone) before the store kept each
// user's records (2f09bae), 1.2 to 1.6 ms after.
// SANDBOX_MODULE=/path/to/other/dist/sandbox.js measures another build (bench/lib.mjs).
// Run: node bench/experiments/other-users.mjs [N]   (default 1000000)
import { SANDBOX_MODULE, median, setupUser } from '../lib.mjs';
import { buildBodies } from '../ingest.mjs';

const N = Number(process.argv[2] ?? 1_000_000);
const { startSandbox } = await import(SANDBOX_MODULE);

/** The ingest bench's bodies (transaction i on acc-(i % 3), 2500 a body), posted one at a time. */
async function push(sb, user, n) {
  const headers = { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' };
  for (const body of buildBodies(n)) {
    const r = await fetch(`${sb.baseUrl}/connector/users/${user}/transactions`, { method: 'POST', headers, body });
    if (r.status !== 204) throw new Error(`push for ${user}: HTTP ${r.status}: ${await r.text()}`);
  }
}

async function measure(others) {
  const sb = await startSandbox({ port: 0 });
  try {
    await setupUser(sb, 'big');
    if (others > 0) await push(sb, 'big', others);
    await setupUser(sb, 'small');
    await push(sb, 'small', 300);
    const g = await fetch(`${sb.baseUrl}/connector/v2/tokens/generate`, {
      method: 'POST',
      headers: { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'small', scopes: ['statistics:read'], ttl: 900 }),
    });
    if (g.status !== 200) throw new Error(`token: HTTP ${g.status}: ${await g.text()}`);
    const headers = { authorization: `Bearer ${(await g.json()).token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ types: ['balances-by-account'], resolution: 'MONTHLY', periods: ['2020'] });
    const times = [];
    let rows = -1;
    // the first 10 warm the code up
    for (let i = -10; i < 15; i++) {
      const t0 = process.hrtime.bigint();
      const r = await fetch(`${sb.baseUrl}/api/v1/statistics/query`, { method: 'POST', headers, body });
      const json = await r.json();
      if (i >= 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 200) throw new Error(`statistics: HTTP ${r.status}: ${JSON.stringify(json)}`);
      if (rows >= 0 && json.length !== rows) throw new Error('statistics: the answer changed between requests');
      rows = json.length;
    }
    return { others, stored: sb.store.transactions.size, rows, ms: median(times) };
  } finally {
    await sb.close();
  }
}

// the full sandbox first: the empty one then runs on code the first has warmed (a ratio that errs
// against the store, not for it)
const full = await measure(N);
const empty = await measure(0);
if (empty.rows !== full.rows) throw new Error(`the small user's answer differs: ${empty.rows} vs ${full.rows} rows`);
console.log(`statistics query of a user with 300 transactions (median of 15; ${empty.rows} rows each)`);
console.table([
  { "other users' transactions": 0, 'stored in all': empty.stored, 'ms per query': empty.ms.toFixed(2) },
  { "other users' transactions": N, 'stored in all': full.stored, 'ms per query': full.ms.toFixed(2) },
]);
console.log(`ratio: ${(full.ms / empty.ms).toFixed(2)}`);
