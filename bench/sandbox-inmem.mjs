// A diagnostic for the two request-rate rows of bench/sandbox.mjs, not a suite of `npm run bench`:
// the sandbox's node:http server and a bare one (the same token check and JSON.stringify of the
// same document) are each fed requests through an in-memory Duplex, one at a time, in the same
// process: Node's HTTP parser and response writer run as over a socket, but there is no socket,
// no system call and no load generator, so what differs is the JavaScript each server runs per
// request. Prints the CPU µs per request of each (median of the rounds, alternating), and
// their ratio. Profile one side with `ONLY=sandbox node --cpu-prof bench/sandbox-inmem.mjs`.
//
//   node bench/sandbox-inmem.mjs [/version | /data/v2/transactions] [requests per round]
//   (needs `node scripts/build.mjs`)
import { Duplex } from 'node:stream';
import { createServer, Server } from 'node:http';
import { ACCOUNTS, SANDBOX_MODULE, benchTransaction, median, setupUser } from './lib.mjs';

const PATH = process.argv[2] ?? '/data/v2/transactions';
const N = Number(process.argv[3] ?? (PATH === '/version' ? 20_000 : 2_000));
const ROUNDS = 11;
const USER = 'rate';

const { startSandbox } = await import(SANDBOX_MODULE);
const sb = await startSandbox({ port: 0 });
// the sandbox does not hand out its server; it is the one node:http server of this process so far
const sandboxServer = process._getActiveHandles().find((h) => h instanceof Server);
if (!sandboxServer) throw new Error("the sandbox's server was not found among the active handles");

async function post(url, body, headers) {
  const res = await fetch(url, { method: 'POST', headers, body });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

// a connector user with 1,000 transactions and a user token to read them, as bench/sandbox.mjs
await setupUser(sb, USER);
const txs = Array.from({ length: 1000 }, (_, i) => `{${benchTransaction(i)}}`);
const accounts = Array.from(
  { length: ACCOUNTS },
  (_, a) =>
    `{"externalId":"acc-${a}","balance":1.25,"transactions":[${txs.filter((_, i) => i % ACCOUNTS === a).join(',')}]}`,
);
await post(
  `${sb.baseUrl}/connector/users/${USER}/transactions`,
  `{"type":"BATCH","transactionAccounts":[${accounts.join(',')}]}`,
  { authorization: `Token ${sb.connectorToken}`, 'content-type': 'application/json' },
);
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const client = { client_id: sb.clientId, client_secret: sb.clientSecret };
const grant = { ...client, grant_type: 'client_credentials', scope: 'authorization:grant' };
const ct = await post(`${sb.baseUrl}/api/v1/oauth/token`, new URLSearchParams(grant), form);
const { code } = await post(
  `${sb.baseUrl}/api/v1/oauth/authorization-grant`,
  new URLSearchParams({ external_user_id: USER, scope: 'transactions:read' }),
  { ...form, authorization: `Bearer ${ct.access_token}` },
);
const ut = await post(
  `${sb.baseUrl}/api/v1/oauth/token`,
  new URLSearchParams({ ...client, grant_type: 'authorization_code', code }),
  form,
);
const token = ut.access_token;
const doc = await fetch(`${sb.baseUrl}${PATH}`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
  r.json(),
);

const tokens = new Map([[token, { userId: 'u', scopes: new Set(['transactions:read']), expiresAt: Infinity }]]);
const bare = createServer((req, res) => {
  if (PATH !== '/version') {
    const h = req.headers.authorization ?? '';
    const t = h.startsWith('Bearer ') ? tokens.get(h.slice(7)) : undefined;
    if (!t || t.expiresAt <= Date.now() || !t.scopes.has('transactions:read')) {
      res.writeHead(401);
      return res.end();
    }
  }
  const body = JSON.stringify(doc);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});

const request = Buffer.from(
  `GET ${PATH} HTTP/1.1\r\nHost: ${new URL(sb.baseUrl).host}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
);

/** n requests, one at a time, through one in-memory connection; every answer must be a 200. */
function drive(server, n) {
  return new Promise((resolve, reject) => {
    let left = n;
    const conn = new Duplex({
      read() {},
      write(chunk, _enc, cb) {
        // a response starts a write (Node writes the head with the first body bytes)
        const start = chunk.toString('latin1', 0, Math.min(chunk.length, 12));
        if (start.startsWith('HTTP/1.1 ')) {
          if (start !== 'HTTP/1.1 200') return reject(new Error(`${start} from ${PATH}`));
          if (--left > 0) setImmediate(() => conn.push(request));
          else setImmediate(() => (conn.destroy(), resolve()));
        }
        cb();
      },
    });
    Object.assign(conn, {
      remoteAddress: '127.0.0.1',
      setTimeout: () => conn,
      setNoDelay: () => conn,
      setKeepAlive: () => conn,
    });
    server.emit('connection', conn);
    conn.push(request);
  });
}

const sides = process.env.ONLY ? [process.env.ONLY] : ['bare', 'sandbox'];
const servers = { bare, sandbox: sandboxServer };
const cpu = { bare: [], sandbox: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const side of r % 2 ? [...sides].reverse() : sides) {
    const c0 = process.cpuUsage();
    await drive(servers[side], N);
    const c = process.cpuUsage(c0);
    // the first round warms the JIT and is not counted
    if (r > 0) cpu[side].push((c.user + c.system) / N);
  }
}
const line = sides.map((s) => `${s} ${median(cpu[s]).toFixed(2)} µs/req`).join(', ');
const ratio = sides.length === 2 ? `, bare/sandbox ${(median(cpu.bare) / median(cpu.sandbox)).toFixed(2)}` : '';
console.log(`${PATH} in memory, ${ROUNDS - 1} rounds of ${N}: ${line}${ratio}`);
await sb.close();
