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

/** src/fs/lock.ts bundled into dir/lock.mjs, for the worker processes to import. */
function bundleLock(dir: string): void {
  buildSync({
    entryPoints: [join(ROOT, 'src/fs/lock.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(dir, 'lock.mjs'),
    logLevel: 'error',
  });
}

describe('a stale lock', () => {
  it('raced for by several processes is taken over by one at a time', async () => {
    const dir = tempDir();
    bundleLock(dir);
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
  it('left by a breaker that died does not keep a stale lock for ever', async () => {
    const dir = tempDir();
    const target = join(dir, 'tokens.json');
    const dead = await deadPid();
    writeFileSync(`${target}.lock`, `${dead}\n`);
    writeFileSync(`${target}.lock.break`, `${dead}\n`);
    const t0 = Date.now();
    expect(withLockSync(target, () => 'held', { waitMs: 3000 })).toBe('held');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(existsSync(`${target}.lock`)).toBe(false);
    expect(existsSync(`${target}.lock.break`)).toBe(false);
  });

  it('of a live breaker is kept however old (resumed, it removes the lock it judged stale): the wait ends in an error naming it', async () => {
    const dir = tempDir();
    const target = join(dir, 'tokens.json');
    const dead = await deadPid();
    writeFileSync(`${target}.lock`, `${dead}\n`);
    writeFileSync(`${target}.lock.break`, `${process.ppid}\n`);
    utimesSync(`${target}.lock.break`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(() => withLockSync(target, () => 'held', { waitMs: 300 })).toThrow(
      new RegExp(`being taken over .* by process ${process.ppid}`),
    );
    expect(readFileSync(`${target}.lock`, 'utf8')).toBe(`${dead}\n`);
    expect(readFileSync(`${target}.lock.break`, 'utf8')).toBe(`${process.ppid}\n`);
  });
});

/** A read-modify-write of a counter under the lock, stopped in the middle until `resume` exists. */
const SLOW_OWNER = `
import { withLockSync } from './lock.mjs';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const [target, inside, resume] = process.argv.slice(2);
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
withLockSync(target, () => {
  const n = Number(readFileSync(target, 'utf8'));
  writeFileSync(inside, '');
  while (!existsSync(resume)) pause(5);
  writeFileSync(target, String(n + 1));
});
`;

describe('a live owner that hangs holding the lock', () => {
  it('keeps it past 30 s: nothing it does not know of is written under it, and no write is lost', async () => {
    const dir = tempDir();
    bundleLock(dir);
    writeFileSync(join(dir, 'owner.mjs'), SLOW_OWNER);
    const target = join(dir, 'counter');
    writeFileSync(target, '0');
    const inside = join(dir, 'inside');
    const resume = join(dir, 'resume');
    const child = spawn(process.execPath, [join(dir, 'owner.mjs'), target, inside, resume], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      while (!existsSync(inside)) await new Promise((r) => setTimeout(r, 10));
      // it hangs (stopped, as by Ctrl-Z) and its lock is a minute old
      child.kill('SIGSTOP');
      const lock = `${target}.lock`;
      const text = readFileSync(lock, 'utf8');
      expect(text.startsWith(`${child.pid}\n`)).toBe(true);
      utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const increment = () =>
        withLockSync(target, () => writeFileSync(target, String(Number(readFileSync(target, 'utf8')) + 1)), {
          waitMs: 500,
        });
      expect(increment).toThrow(new RegExp(`locked by process ${child.pid}`));
      expect(readFileSync(lock, 'utf8')).toBe(text);
      // resumed, it finishes its write and lets go; the next writer then counts on from it
      child.kill('SIGCONT');
      writeFileSync(resume, '');
      expect(await exited).toBe(0);
      increment();
      expect(readFileSync(target, 'utf8')).toBe('2');
      expect(existsSync(lock)).toBe(false);
    } finally {
      child.kill('SIGCONT');
      child.kill();
    }
  }, 60_000);
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
