// Whether a process lives, and since when: what the lock files and the temporary files of an
// atomic write carry (their owner's pid) is judged by these.
import { readFileSync } from 'node:fs';

/**
 * Whether a process with this pid runs (one of another user's counts). A zombie does not: it has
 * ended and only waits for its parent to collect its exit status, which a container's init that
 * does not reap (`sleep infinity` as PID 1) never does; a signal of 0 still finds it, so a killed
 * sandbox counted as running and `sandbox stop` waited 10 s for one that had ended.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/** Whether /proc says the process has ended (state Z, zombie, or X, dead); false where there is no /proc. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // field 3, after the command name in parentheses (which may hold spaces or ')')
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

/**
 * When a process started (field 22 of /proc/<pid>/stat: clock ticks since boot), or undefined where
 * there is no /proc (macOS, BSD, Windows) or no such process. A pid and its start time name one
 * process for as long as the system runs: a lock naming a pid the system has since given to another
 * program (a killed bankctl's) is known as stale at once, not when it is STALE_MS old.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces or ')': count after the last
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether pid now names a process other than the one recorded as started at `start` (the system
 * gave a killed process's pid away): known where /proc tells start times and a start was recorded.
 */
export function pidGivenAway(pid: number, start: string | undefined): boolean {
  if (start === undefined) return false;
  const now = processStart(pid);
  return now !== undefined && now !== start;
}
