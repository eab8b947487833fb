// The sandbox's request rate against a bare node:http server doing the same token check and the
// same serialisation, each in its own process, measured in the same run by a load generator of
// this file (a third process: keep-alive connections on node:net, one request in flight on each,
// as wrk does). Two requests:
//   GET /version                      no token; a small JSON body
//   GET /data/v2/transactions         a user's Bearer token, checked (known, not expired, scope);
//                                     a page of 100 of the user's 1,000 transactions (ingested
//                                     through the connector API), about 60 kB of JSON
// The bare server answers the same bytes: it is handed the sandbox's own first page and /version
// body (parsed), and JSON.stringifies them per request, after the same token check. The sandbox
// keeps the JSON text of a transaction read more than once (routes/read-views.ts), so from the
// second round on it joins the page from kept texts where the bare server serialises: this row is a
// page read again (a client polling its first page); a page read once is serialised whole, as the
// bare server does (the paging and verify rows read every page once). Rounds
// alternate bare and sandbox; the ratio of each round is the sandbox's rate over the bare one's
// in that round, and the row shows the median ratio and its spread. Also each server's CPU time
// per request (process.cpuUsage() asked over stdin), which other load on the machine disturbs less.
// Runnable alone: node bench/sandbox.mjs [seconds per run]   (needs `node scripts/build.mjs`)
import { connect } from 'node:net';
import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  ACCOUNTS,
  SANDBOX_MODULE,
  benchTransaction,
  childRole,
  median,
  ofRounds,
  printTable,
  setupUser,
} from './lib.mjs';

const SELF = fileURLToPath(import.meta.url);
/** The sandbox must answer at least this share of the bare server's rate. */
export const RATE_LIMIT = 0.9;
const CONNECTIONS = 16;
const TRANSACTIONS = 1000;
const USER = 'rate';

// ---- the servers --------------------------------------------------------------------------------

/** Answers `cpu` lines on stdin with process.cpuUsage(), until stdin closes. */
async function answerCpu(close) {
  for await (const line of createInterface({ input: process.stdin }))
    if (line.trim() === 'cpu') process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
  await close();
}

async function post(url, body, headers) {
  const res = await fetch(url, { method: 'POST', headers, body });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/**
 * The sandbox as `bankctl sandbox start` runs it: a process that only serves. Its data is put in by
 * the parent over HTTP (populate), as clients do: a sandbox process that made the set-up requests
 * itself ran fetch (undici) beside its server, and the Node stream and event code both share then
 * saw more object shapes: 68,400 instructions per GET /version against 65,900 when populated from
 * outside (bench/instructions.mjs, most of it in megamorphic property lookups), a cost no real
 * sandbox pays.
 */
async function serveSandbox() {
  const { startSandbox } = await import(SANDBOX_MODULE);
  const sb = await startSandbox({ port: 0 });
  const { baseUrl, connectorToken, clientId, clientSecret } = sb;
  process.stdout.write(`${JSON.stringify({ baseUrl, connectorToken, clientId, clientSecret })}\n`);
  await answerCpu(() => sb.close());
}

/** A connector user of TRANSACTIONS transactions on the sandbox, and a user token to read them. */
async function populate(sb) {
  const base = sb.baseUrl;
  await setupUser(sb, USER);
  const txs = Array.from({ length: TRANSACTIONS }, (_, i) => `{${benchTransaction(i)}}`);
  const accounts = Array.from({ length: ACCOUNTS }, (_, a) => ({
    a,
    txs: txs.filter((_, i) => i % ACCOUNTS === a),
  }));
  const body = `{"type":"BATCH","transactionAccounts":[${accounts
    .map(({ a, txs: t }) => `{"externalId":"acc-${a}","balance":1.25,"transactions":[${t.join(',')}]}`)
    .join(',')}]}`;
  await post(`${base}/connector/users/${USER}/transactions`, body, {
    authorization: `Token ${sb.connectorToken}`,
    'content-type': 'application/json',
  });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const client = { client_id: sb.clientId, client_secret: sb.clientSecret };
  const ct = await post(
    `${base}/api/v1/oauth/token`,
    new URLSearchParams({ ...client, grant_type: 'client_credentials', scope: 'authorization:grant' }),
    form,
  );
  const { code } = await post(
    `${base}/api/v1/oauth/authorization-grant`,
    new URLSearchParams({ external_user_id: USER, scope: 'transactions:read' }),
    { ...form, authorization: `Bearer ${ct.access_token}` },
  );
  const ut = await post(
    `${base}/api/v1/oauth/token`,
    new URLSearchParams({ ...client, grant_type: 'authorization_code', code }),
    form,
  );
  return ut.access_token;
}

/**
 * The baseline: node:http, the path told apart by comparing strings, the Bearer token looked up in
 * a Map and checked for expiry and scope, and the same documents JSON.stringified per request.
 */
async function serveBare() {
  // BARE_WITH_SANDBOX=1: the bare server runs in a process that also holds an idle sandbox (the same
  // modules and heap), to tell the cost of the sandbox's request path from that of its process
  let idle;
  if (process.env.BARE_WITH_SANDBOX === '1') {
    const { startSandbox } = await import(SANDBOX_MODULE);
    idle = await startSandbox({ port: 0 });
    await setupUser(idle, USER);
  }
  const it = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const { token, version, page } = JSON.parse((await it.next()).value);
  const tokens = new Map([[token, { userId: 'u', scopes: new Set(['transactions:read']), expiresAt: Infinity }]]);
  const send = (res, status, doc) => {
    const body = JSON.stringify(doc);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
  const srv = createServer((req, res) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path === '/version') return send(res, 200, version);
    if (path !== '/data/v2/transactions') return send(res, 404, { errorMessage: 'not found' });
    const h = req.headers.authorization ?? '';
    const t = h.startsWith('Bearer ') ? tokens.get(h.slice(7)) : undefined;
    if (!t || t.expiresAt <= Date.now()) return send(res, 401, { errorMessage: 'invalid token' });
    if (!t.scopes.has('transactions:read')) return send(res, 403, { errorMessage: 'scope' });
    send(res, 200, page);
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${srv.address().port}` })}\n`);
  // the rest of stdin: cpu lines
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    if (r.value.trim() === 'cpu') process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
  }
  await new Promise((r) => (srv.closeAllConnections(), srv.close(r)));
  await idle?.close();
}

// ---- the load generator -------------------------------------------------------------------------

/**
 * Keeps `connections` keep-alive connections busy with one request each for `ms`, reading just
 * enough of each response (status line, Content-Length) to know where it ends. Every answer must
 * be a 200 of `expectBytes` body bytes. Cheap on purpose: the generator must cost less CPU than the
 * servers it measures, or it measures itself.
 */
/**
 * Requests over `connections` keep-alive sockets, each sending its next request when the last one's
 * answer is in: for `ms` milliseconds (the rate rows), or, given `count`, exactly `count` requests in
 * all whatever the time they take (bench/instructions.mjs, whose per-request count must not depend
 * on how fast a loaded machine lets the servers go).
 */
function load({ baseUrl, path, headers, ms, count, connections, expectBytes }) {
  const { hostname, port } = new URL(baseUrl);
  const request = Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
    'latin1',
  );
  let done = 0;
  let sent = 0;
  let failure;
  // count mode: a request is sent only while fewer than count have been sent (by all connections)
  const more = count === undefined ? () => last < deadline : () => sent < count;
  const send = (sock) => {
    sent++;
    sock.write(request);
  };
  const started = performance.now();
  const deadline = started + ms;
  let last = started;
  const one = () =>
    new Promise((resolve) => {
      const sock = connect(Number(port), hostname);
      sock.setNoDelay(true);
      let head = ''; // the response head read so far (latin1)
      let body = -1; // body bytes still to come; -1 while reading the head
      const fail = (why) => {
        failure ??= why;
        sock.destroy();
      };
      const complete = (status, length) => {
        if (status !== 200) return fail(`HTTP ${status}`);
        if (expectBytes !== undefined && length !== expectBytes)
          return fail(`a body of ${length} bytes, not ${expectBytes}`);
        done++;
        last = performance.now();
        if (more()) send(sock);
        else sock.end();
      };
      let status = 0;
      let length = 0;
      sock.on('data', (chunk) => {
        let at = 0;
        while (at < chunk.length) {
          if (body < 0) {
            const before = head.length;
            head += chunk.toString('latin1', at, Math.min(chunk.length, at + 4096));
            const end = head.indexOf('\r\n\r\n');
            if (end < 0) {
              at += head.length - before;
              if (head.length > 65536) return fail('a response head over 64 kB');
              continue;
            }
            at += end + 4 - before;
            status = Number(head.slice(9, 12));
            const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            if (!m) return fail('a response without Content-Length');
            length = Number(m[1]);
            body = length;
            head = '';
          }
          const take = Math.min(body, chunk.length - at);
          body -= take;
          at += take;
          if (body === 0) {
            body = -1;
            complete(status, length);
          }
        }
      });
      sock.on('error', (err) => fail(err.message));
      sock.on('close', resolve);
      sock.on('connect', () => (more() ? send(sock) : sock.end()));
    });
  return Promise.all(Array.from({ length: connections }, one)).then(() => {
    if (failure) throw new Error(`${baseUrl}${path}: ${failure}`);
    if (count !== undefined && done !== count)
      throw new Error(`${baseUrl}${path}: ${done} answers to ${count} requests`);
    return { requests: done, ms: last - started };
  });
}

/** The generator's process: one JSON line of load() options in, one result line out, repeated. */
async function loader() {
  process.stdout.write('{}\n');
  for await (const line of createInterface({ input: process.stdin })) {
    try {
      process.stdout.write(`${JSON.stringify(await load(JSON.parse(line)))}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ error: err.message })}\n`);
    }
  }
}

// ---- the orchestration --------------------------------------------------------------------------

const cpuMs = (a, b) => (b.user - a.user + b.system - a.system) / 1000;

/** One timed run of `gen` against a server: requests per second and server CPU µs per request. */
async function measure(gen, server, opts) {
  const cpu0 = await server.ask('cpu');
  const r = await gen.ask(JSON.stringify(opts));
  const cpu1 = await server.ask('cpu');
  if (r.error) throw new Error(r.error);
  return { rps: r.requests / (r.ms / 1000), cpuUs: (cpuMs(cpu0, cpu1) * 1000) / r.requests };
}

/**
 * The three processes of a rate measurement (sandbox, bare server, load generator), the bare server
 * given the sandbox's own /version and first page and checked to answer the same bytes, and the
 * cases (RATE_CASES=version or transactions: only the cases whose path holds it, to profile one).
 * `wrap`: a command each server runs under (bench/instructions.mjs runs them under callgrind).
 */
export async function startRateServers({ wrap = [] } = {}) {
  const nodeArgs = ['--max-old-space-size=4096'];
  // SANDBOX_NODE_ARGS, BARE_NODE_ARGS: extra node options for the sandbox's or the bare server's
  // process (--cpu-prof, --heap-prof...)
  const extra = (process.env.SANDBOX_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const sandbox = await childRole(SELF, ['--serve-sandbox'], [...nodeArgs, ...extra], { wrap });
  const bareExtra = (process.env.BARE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const bare = await childRole(SELF, ['--serve-bare'], [...nodeArgs, ...bareExtra], { firstLine: false, wrap });
  const gen = await childRole(SELF, ['--load'], nodeArgs);
  const stop = () => Promise.all([sandbox.stop(), bare.stop(), gen.stop()]);
  try {
    const token = await populate(sandbox.first);
    const auth = { authorization: `Bearer ${token}` };
    const version = await fetch(`${sandbox.first.baseUrl}/version`).then((r) => r.text());
    const page = await fetch(`${sandbox.first.baseUrl}/data/v2/transactions`, { headers: auth }).then((r) => r.text());
    const pageDoc = JSON.parse(page);
    if (pageDoc.transactions?.length !== 100) throw new Error(`the sandbox's first page: ${page.slice(0, 300)}`);
    const bareInfo = await bare.ask(JSON.stringify({ token, version: JSON.parse(version), page: pageDoc }));
    // the same bytes from both
    for (const [path, text] of [
      ['/version', version],
      ['/data/v2/transactions', page],
    ]) {
      const b = await fetch(`${bareInfo.baseUrl}${path}`, { headers: auth }).then((r) => r.text());
      if (b !== text) throw new Error(`the bare server's ${path} differs from the sandbox's`);
    }
    const allCases = [
      { name: 'GET /version', path: '/version', headers: {}, expectBytes: Buffer.byteLength(version) },
      {
        name: 'GET /data/v2/transactions (Bearer, 100 per page)',
        path: '/data/v2/transactions',
        headers: auth,
        expectBytes: Buffer.byteLength(page),
      },
    ];
    const only = process.env.RATE_CASES;
    const cases = only ? allCases.filter((c) => c.path.includes(only)) : allCases;
    const servers = [
      { name: 'bare', proc: bare, baseUrl: bareInfo.baseUrl },
      { name: 'sandbox', proc: sandbox, baseUrl: sandbox.first.baseUrl },
    ];
    /**
     * What the load generator is asked for: case c against server s for ms milliseconds, or, with
     * `count`, for exactly that many requests over `connections` (default CONNECTIONS) sockets.
     */
    const loadOf = (c, s, ms, { count, connections = CONNECTIONS } = {}) => ({
      baseUrl: s.baseUrl,
      path: c.path,
      headers: c.headers,
      ms,
      count,
      connections,
      expectBytes: c.expectBytes,
    });
    return { servers, cases, gen, loadOf, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export async function runSandboxRps({ seconds = Number(process.env.SECONDS_PER_RUN ?? 2), rounds = 5 } = {}) {
  const { servers, cases, gen, loadOf, stop } = await startRateServers();
  const rows = [];
  try {
    const ms = seconds * 1000;
    for (const c of cases) {
      const opts = (s, t) => loadOf(c, s, t);
      // warm both (JIT, the sandbox's index) before anything counts
      for (const s of servers) await measure(gen, s.proc, opts(s, Math.min(ms, 1000)));
      const runs = { bare: [], sandbox: [] };
      for (let r = 0; r < rounds; r++) {
        // alternate which goes first, so that a drift in the machine's load favours neither
        const order = r % 2 ? [...servers].reverse() : servers;
        for (const s of order) runs[s.name].push(await measure(gen, s.proc, opts(s, ms)));
      }
      const { ratio, spread } = ofRounds(runs.sandbox.map((s, i) => s.rps / runs.bare[i].rps));
      const cpuRatios = runs.sandbox.map((s, i) => runs.bare[i].cpuUs / s.cpuUs);
      const med = (xs, k) => median(xs.map((x) => x[k]));
      rows.push(
        {
          request: c.name,
          server: 'bare node:http (baseline)',
          'req/s': Math.round(med(runs.bare, 'rps')),
          'server CPU µs/req': med(runs.bare, 'cpuUs').toFixed(1),
          ratio: '1.00',
          spread: '',
          limit: '',
          ok: '',
        },
        {
          request: c.name,
          server: 'sandbox',
          'req/s': Math.round(med(runs.sandbox, 'rps')),
          'server CPU µs/req': med(runs.sandbox, 'cpuUs').toFixed(1),
          ratio: ratio.toFixed(2),
          spread: `${spread} (CPU ${median(cpuRatios).toFixed(2)})`,
          limit: `>= ${RATE_LIMIT}`,
          ok: ratio >= RATE_LIMIT ? 'yes' : 'NO',
        },
      );
    }
  } finally {
    await stop();
  }
  printTable(
    `Sandbox request rate (${CONNECTIONS} keep-alive connections from a node:net load process, ${rounds} x ${seconds}s per side interleaved; ratio = median of the rounds' sandbox/bare req/s, spread = min-max, CPU = bare/sandbox server CPU per request)`,
    rows,
  );
  return rows;
}

// (by its real path: run through a symbolic link, the roles of the child processes still start)
if (process.argv[1] && realpathSync(process.argv[1]) === SELF) {
  const role = process.argv[2];
  if (role === '--serve-sandbox') await serveSandbox();
  else if (role === '--serve-bare') await serveBare();
  else if (role === '--load') await loader();
  else {
    const rows = await runSandboxRps(role ? { seconds: Number(role) } : {});
    if (rows.some((r) => r.ok === 'NO')) process.exitCode = 1;
  }
}
