// Shared helpers for the benchmarks: timing child processes, medians, peak RSS, a table.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = `${ROOT}bin/bankctl.js`;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Runs a command to completion and returns its wall time (ms) and peak RSS (MB), measured by
 * GNU time when present (the child's own maximum resident set), else by resourceUsage of node.
 */
export function timeCommand(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const useTime = opts.rss && process.platform === 'linux';
    const argv = useTime ? ['-f', '%M', cmd, ...args] : args;
    const child = spawn(useTime ? '/usr/bin/time' : cmd, argv, { stdio: ['ignore', opts.stdout ?? 'ignore', 'pipe'], env: opts.env ?? process.env });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0 && !opts.allowFail) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`));
      let rssMb;
      if (useTime) {
        const lines = stderr.trim().split('\n');
        rssMb = Number(lines[lines.length - 1]) / 1024;
      }
      resolve({ ms, rssMb, stderr });
    });
  });
}

export function printTable(title, rows) {
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(`\n${title}`);
  console.log(line(headers));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(headers.map((h) => r[h])));
}
