// `sandbox start --detach` waits for its child's readiness line. A child that is only slow (a large
// --data file loads for tens of seconds) is waited for; one that never gets ready, or whose parent is
// stopped while it waits, is stopped too: no sandbox is ever left running that nobody was told of.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Context } from '../../context.js';
import { dataFileSize } from './data-file.js';

/** How long the child may take to get ready: a state file of a million transactions loads in ~20 s. */
const WAIT_MS = 5 * 60_000;
/** After this long without readiness, one line says that the sandbox is still starting. */
const STILL_STARTING_MS = 2000;
/** A child asked to stop (TERM) that has not after this long is killed: one blocked in a read never sees TERM. */
const KILL_GRACE_MS = 2000;

export type Outcome =
  | { kind: 'ready'; line: string }
  | { kind: 'exited'; code: number | null }
  | { kind: 'timeout'; waitedMs: number }
  | { kind: 'interrupted' };

/**
 * The bound on the wait. BANKCTL_TEST_DETACH_WAIT_MS (milliseconds) shortens it for tests of a child
 * that never gets ready; it is not part of the CLI's documented environment.
 */
export function detachWaitMs(env: Record<string, string | undefined>): number {
  const v = Number(env.BANKCTL_TEST_DETACH_WAIT_MS);
  return Number.isFinite(v) && v > 0 ? v : WAIT_MS;
}

export function human(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** What the child is busy with: the state file it loads, when there is one. */
function loading(dataFile: string | undefined): string {
  const size = dataFile ? dataFileSize(dataFile) : undefined;
  // a new file: nothing to load
  return size ? `, loading the state file ${dataFile} (${size})` : '';
}

/**
 * Waits for the child's first stdout line (its readiness), its end, the bound, or Ctrl-C/TERM/HUP
 * of this process (claimed here: the detached child is in its own process group, the terminal's
 * Ctrl-C never reaches it). Says once, after a couple of seconds, that it is still waiting.
 */
export function awaitReady(ctx: Context, child: ChildProcess, dataFile: string | undefined): Promise<Outcome> {
  const waitMs = detachWaitMs(ctx.env);
  return new Promise<Outcome>((resolve) => {
    const rl = createInterface({ input: child.stdout! });
    const timers = [
      setTimeout(() => done({ kind: 'timeout', waitedMs: waitMs }), waitMs),
      setTimeout(() => {
        ctx.notice(`sandbox: still starting (pid ${child.pid})${loading(dataFile)}; waiting up to ${human(waitMs)}`);
      }, STILL_STARTING_MS),
    ];
    const off = ctx.claimInterrupt(() => done({ kind: 'interrupted' }));
    let settled = false;
    function done(o: Outcome): void {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      off();
      rl.close();
      resolve(o);
    }
    rl.once('line', (line) => done({ kind: 'ready', line }));
    // 'close': the child has exited and its stdout is read to the end (a readiness line comes first)
    child.once('close', (code) => done({ kind: 'exited', code }));
  });
}

function gone(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (gone(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/**
 * Stops the child's whole process group (it was spawned detached, the group's leader): TERM, which
 * a sandbox handles as `sandbox stop` does, then KILL when it has not ended after a grace period.
 * False when even that did not end it.
 */
export async function stopChild(child: ChildProcess): Promise<boolean> {
  const signal = (s: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // the group is gone already
    }
  };
  if (gone(child)) return true;
  signal('SIGTERM');
  if (await exited(child, KILL_GRACE_MS)) return true;
  signal('SIGKILL');
  return exited(child, KILL_GRACE_MS);
}
