// The sandbox itself: requests per second on a small GET (GET /version), measured by wrk from a
// second process, against a bare node:http server answering the same bytes in the same run.
// It must never be the bottleneck of the CLI benchmarks, so both sides are shown.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { printTable, ROOT } from './lib.mjs';

function startChild(code) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (l) => resolve({ child, url: l.trim() }));
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
}

const SANDBOX = `import { startSandbox } from ${JSON.stringify(`${ROOT}dist/sandbox.js`)};
const s = await startSandbox({ port: 0 }); console.log(s.baseUrl);`;
const BARE = `import { createServer } from 'node:http';
const body = JSON.stringify({ version: '1.0.0-sandbox', commit: 'sandbox', date: 1767225600000 });
const srv = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); });
srv.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + srv.address().port));`;

function wrk(url, seconds) {
  const r = spawnSync('wrk', ['-t1', '-c16', `-d${seconds}s`, url], { encoding: 'utf8' });
  if (r.error) throw r.error;
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk said: ${r.stdout}${r.stderr}`);
  return Number(m[1]);
}

/** The server's own peak resident set (VmHWM), Linux only. */
function peakRssMb(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? (Number(kb) / 1024).toFixed(1) : 'n/a';
  } catch {
    return 'n/a';
  }
}

export async function runSandboxRps({ seconds = Number(process.env.SECONDS_PER_RUN ?? 3), rounds = 3 } = {}) {
  if (spawnSync('wrk', ['--version']).error) {
    console.log('\nSandbox throughput: skipped (wrk is not installed: apt-get install wrk)');
    return [];
  }
  const sandbox = await startChild(SANDBOX);
  const bare = await startChild(BARE);
  const s = [];
  const b = [];
  let rss;
  try {
    for (let i = 0; i < rounds; i++) {
      b.push(wrk(`${bare.url}/version`, seconds));
      s.push(wrk(`${sandbox.url}/version`, seconds));
    }
    rss = [bare, sandbox].map(({ child }) => peakRssMb(child.pid));
  } finally {
    sandbox.child.kill();
    bare.child.kill();
  }
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const rows = [
    {
      case: 'bare node:http GET /version (baseline)',
      'req/s (median)': med(b).toFixed(0),
      ratio: '1.00',
      'peak RSS MB': rss[0],
    },
    {
      case: 'sandbox GET /version',
      'req/s (median)': med(s).toFixed(0),
      ratio: (med(s) / med(b)).toFixed(2),
      'peak RSS MB': rss[1],
    },
  ];
  printTable(`Sandbox throughput (wrk -t1 -c16, ${rounds} x ${seconds}s interleaved)`, rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await runSandboxRps();
