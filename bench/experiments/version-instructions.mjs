// Not a bench row: instructions per `GET /version` of one server, counted by callgrind with no
// socket, no load generator and no timing in the loop. Written when bench/instructions.mjs paced its
// load by wall time (it now counts a fixed number of requests over sockets, both servers and both
// cases in one run); this one stays for reading one server's request path by function
// (callgrind-by-name.mjs) without libuv and the socket calls in the dump. The requests go
// through an in-memory Duplex as in bench/sandbox-inmem.mjs: Node's parser and writer run as usual.
// One process per server; WARM requests first, then callgrind's counters are zeroed and COUNT
// requests counted on the main thread.
//   node bench/experiments/version-instructions.mjs [sandbox|bare] [warm] [count]
//   (needs valgrind and `node scripts/build.mjs`; SANDBOX_MODULE names another build)
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_MODULE } from '../lib.mjs';

const [side = 'sandbox', warmArg = '40000', countArg = '20000'] = process.argv.slice(2);
const WARM = Number(warmArg);
const COUNT = Number(countArg);

if (process.env.VERSION_INSTRUCTIONS_CHILD !== '1') {
  // the parent: runs itself under callgrind and reads the dump
  const dir = mkdtempSync(join(tmpdir(), 'bankctl-vi-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '-q',
      '--separate-threads=yes',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      process.execPath,
      ...(process.env.SANDBOX_NODE_ARGS ?? '').split(' ').filter(Boolean),
      fileURLToPath(import.meta.url),
      side,
      String(WARM),
      String(COUNT),
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, VERSION_INSTRUCTIONS_CHILD: '1' } },
  );
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`the counted process exited ${code}`);
  const file = readdirSync(dir).find((f) => /^cg\.\d+\.1-01$/.test(f));
  if (!file) throw new Error(`no dump in ${dir}`);
  const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
  console.log(`${side}: ${Math.round(Number(m[1]) / COUNT)} instructions/req (${COUNT} counted after ${WARM})`);
  if (process.env.CALLGRIND_KEEP === '1') console.log(`dumps kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const control = (flag) =>
  new Promise((resolve, reject) =>
    execFile('callgrind_control', [flag, String(process.pid)], (err) => (err ? reject(err) : resolve())),
  );

let server;
let host = '127.0.0.1';
let close = async () => undefined;
if (side === 'sandbox') {
  const { startSandbox } = await import(SANDBOX_MODULE);
  const sb = await startSandbox({ port: 0 });
  server = process._getActiveHandles().find((h) => h instanceof Server);
  host = new URL(sb.baseUrl).host;
  close = () => sb.close();
} else {
  const doc = { version: '1.0.0-sandbox', commit: 'sandbox', date: Date.UTC(2026, 0, 1) };
  server = createServer((req, res) => {
    const body = JSON.stringify(doc);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
}
const request = Buffer.from(`GET /version HTTP/1.1\r\nHost: ${host}\r\n\r\n`);

function drive(n) {
  return new Promise((resolve, reject) => {
    let left = n;
    const conn = new Duplex({
      read() {},
      write(chunk, _enc, cb) {
        const start = chunk.toString('latin1', 0, Math.min(chunk.length, 12));
        if (start.startsWith('HTTP/1.1 ')) {
          if (start !== 'HTTP/1.1 200') return reject(new Error(`${start} from /version`));
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

await drive(WARM);
await control('-z');
await drive(COUNT);
await control('-d');
await close();
