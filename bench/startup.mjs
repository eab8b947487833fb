// Start-up: `bankctl --version` and every level of `--help` against bare `node -e 0`,
// interleaved in one run so that machine noise hits all of them alike.
import { existsSync } from 'node:fs';
import { BIN, median, printTable, timeCommand } from './lib.mjs';

export async function runStartup({ runs = 15 } = {}) {
  if (!existsSync(`${BIN.replace('bin/bankctl.js', 'dist/main.js')}`)) throw new Error('run `npm run build` first');
  // the limits: --version within 1.2x of `node -e 0`, any --help within 2x
  const cases = [
    { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
    { name: 'bankctl --version', args: [BIN, '--version'], limit: 1.2 },
    { name: 'bankctl --help', args: [BIN, '--help'], limit: 2.0 },
    { name: 'bankctl connector --help', args: [BIN, 'connector', '--help'], limit: 2.0 },
    { name: 'bankctl users create --help', args: [BIN, 'users', 'create', '--help'], limit: 2.0 },
    { name: 'bankctl auth login --help', args: [BIN, 'auth', 'login', '--help'], limit: 2.0 },
    { name: 'bankctl connector push --help', args: [BIN, 'connector', 'push', '--help'], limit: 2.0 },
    { name: 'bankctl credentials connect --help', args: [BIN, 'credentials', 'connect', '--help'], limit: 2.0 },
  ];
  const times = cases.map(() => []);
  const rss = cases.map(() => []);
  // warm the file cache
  for (const c of cases) await timeCommand(process.execPath, c.args);
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < cases.length; j++) {
      const r = await timeCommand(process.execPath, cases[j].args, { rss: i === 0 });
      times[j].push(r.ms);
      if (r.rssMb) rss[j].push(r.rssMb);
    }
  }
  const base = median(times[0]);
  const rows = cases.map((c, j) => {
    const m = median(times[j]);
    const ratio = m / base;
    return {
      case: c.name,
      'median ms': m.toFixed(1),
      ratio: j === 0 ? '1.00' : ratio.toFixed(2),
      limit: c.limit ? `${c.limit}x` : '',
      'peak RSS MB': rss[j][0]?.toFixed(1) ?? '',
      ok: c.limit ? (ratio <= c.limit ? 'yes' : 'NO') : '',
    };
  });
  printTable(`Start-up (${runs} interleaved runs each, median)`, rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runStartup({ runs: Number(process.env.RUNS ?? 25) });
  if (rows.some((r) => r.ok === 'NO')) process.exitCode = 1;
}
