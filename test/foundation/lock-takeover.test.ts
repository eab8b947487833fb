// Taking over the lock of a file (src/fs/lock.ts) that a bankctl left behind: real processes racing
// for one stale lock, and a lock whose pid the system has since given to another program.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT, spawnCli, tempDir } from '../helpers/cli.js';
import { LockHeldError, withLockSync } from '../../src/fs/lock.js';

/** When a process started (field 22 of /proc/<pid>/stat), or undefined without /proc. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

/** Each worker takes the lock `rounds` times and "dies" holding it (leaves it naming a dead pid); a holder that finds the marker of another counts a clash. */
const WORKER = `
import { holdLockSync, LockHeldError } from './lock.mjs';
import { closeSync, existsSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
const [target, marker, dead, rounds, go, report] = process.argv.slice(2);
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
while (!existsSync(go)) pause(1);
let got = 0, clashes = 0;
const until = Date.now() + 40000;
while (got < Number(rounds) && Date.now() < until) {
  try {
    holdLockSync(target);
  } catch (err) {
    if (!(err instanceof LockHeldError)) throw err;
    pause(Math.random() * 2);
    continue;
  }
  let mine = false;
  try { closeSync(openSync(marker, 'wx')); mine = true; } catch { clashes++; }
  pause(1);
  if (mine) rmSync(marker);
  const tmp = target + '.lock.' + process.pid + '.tmp';
  writeFileSync(tmp, dead + '\\n');
  renameSync(tmp, target + '.lock');
  got++;
}
writeFileSync(report, JSON.stringify({ got, clashes }));
`;

function run(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

describe('a stale lock', () => {
  it('raced for by several processes is taken over by one at a time', async () => {
    const dir = tempDir();
    buildSync({
      entryPoints: [join(ROOT, 'src/fs/lock.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(dir, 'lock.mjs'),
      logLevel: 'error',
    });
    writeFileSync(join(dir, 'worker.mjs'), WORKER);
    const target = join(dir, 'config.json');
    const dead = await deadPid();
    writeFileSync(`${target}.lock`, `${dead}\n`);
    const go = join(dir, 'go');
    const n = 6;
    const rounds = 60;
    const workers = Array.from({ length: n }, (_, i) =>
      run([join(dir, 'worker.mjs'), target, join(dir, 'held'), String(dead), String(rounds), go, join(dir, `r${i}`)]),
    );
    await new Promise((r) => setTimeout(r, 500)); // all started: they go at once
    writeFileSync(go, '');
    expect(await Promise.all(workers)).toEqual(Array(n).fill(0));
    const reports = Array.from(
      { length: n },
      (_, i) => JSON.parse(readFileSync(join(dir, `r${i}`), 'utf8')) as { got: number; clashes: number },
    );
    expect(reports.map((r) => r.clashes)).toEqual(Array(n).fill(0));
    expect(reports.map((r) => r.got)).toEqual(Array(n).fill(rounds));
    expect(existsSync(`${target}.lock.break`)).toBe(false);
  }, 90_000);
});

describe('the guard of a takeover', () => {
  it('left by a breaker that died (or hung past 5 s) does not keep a stale lock for ever', async () => {
    const dir = tempDir();
    const target = join(dir, 'tokens.json');
    const dead = await deadPid();
    for (const guard of [`${dead}\n`, `${process.ppid}\n`]) {
      writeFileSync(`${target}.lock`, `${dead}\n`);
      writeFileSync(`${target}.lock.break`, guard);
      if (guard !== `${dead}\n`)
        utimesSync(`${target}.lock.break`, new Date(Date.now() - 6000), new Date(Date.now() - 6000));
      const t0 = Date.now();
      expect(withLockSync(target, () => 'held', { waitMs: 3000 })).toBe('held');
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(existsSync(`${target}.lock`)).toBe(false);
      expect(existsSync(`${target}.lock.break`)).toBe(false);
    }
  });
});

describe('a lock naming a pid the system has given to another program since', () => {
  it('is taken over at once when its start time is not that of the process; a lock of the live owner, or without a start time, is waited for', async (ctx) => {
    if (processStart(process.pid) === undefined) {
      process.stderr.write('skipped: test/foundation/lock-takeover.test.ts: no /proc/<pid>/stat here\n');
      ctx.skip();
    }
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const pid = other.pid!;
      const start = processStart(pid)!;
      const dir = tempDir();
      const lock = join(dir, 'config.json.lock');
      // the owner it names is alive and is the process that wrote it: waited for, never broken
      for (const text of [`${pid}\n${start}\n`, `${pid}\n`]) {
        writeFileSync(lock, text);
        expect(() => withLockSync(join(dir, 'config.json'), () => 0, { waitMs: 300 })).toThrow(LockHeldError);
        expect(readFileSync(lock, 'utf8')).toBe(text);
      }
      // written by a bankctl that started before this pid's present process (and was killed)
      writeFileSync(lock, `${pid}\n${BigInt(start) - 1n}\n`);
      const t0 = Date.now();
      const r = await spawnCli(['config', 'set', 'timeout', '9'], { env: { BANKCTL_CONFIG_DIR: dir } });
      expect(r.stderr).not.toMatch(/locked by/);
      expect(r.code).toBe(0);
      expect(Date.now() - t0).toBeLessThan(8000);
      expect(existsSync(lock)).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toMatchObject({
        profiles: { default: { timeout: '9' } },
      });
    } finally {
      other.kill();
    }
  }, 60_000);
});
