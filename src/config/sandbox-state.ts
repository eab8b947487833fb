// The running sandbox publishes itself in <config dir>/sandbox.json (0600, written atomically) so
// that `sandbox stop` finds it and the default profile can use its client without `auth login`.
// The file is trusted only in a private config directory (src/config/private.ts), and its pid is
// signalled only while that process is still a bankctl sandbox.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SandboxState } from './settings.js';
import { writeFileAtomicSync } from '../fs/atomic.js';
import { fileError } from '../fs/errors.js';
import { UsageError } from '../errors.js';
import { processAlive, processStart, withLockSync } from '../fs/lock.js';
import { pidGivenAway } from '../fs/pids.js';
import { checkPrivate, tightenFile } from './private.js';
import { syntaxErrorAt } from './json-file.js';

// whether a pid lives is the lock's question too: one answer for both
export { processAlive };

export function stateFile(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export function writeState(configDir: string, state: SandboxState): void {
  ensurePrivateDir(configDir);
  writeFileAtomicSync(stateFile(configDir), `${JSON.stringify(state, null, 2)}\n`, {
    mode: 0o600,
    what: 'the sandbox state file',
  });
}

/** Creates the config directory (0700) if needed and refuses one that is not private. */
export function ensurePrivateDir(configDir: string): void {
  try {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw fileError(err, configDir, 'write', 'the config directory');
  }
  checkPrivate(configDir, 'directory');
}

/**
 * Publishes this sandbox unless another live one is recorded in the same directory: returns that
 * one instead (and writes nothing). Check and write hold the file's lock.
 */
export function claimState(configDir: string, state: SandboxState): SandboxState | undefined {
  ensurePrivateDir(configDir);
  return withLockSync(
    stateFile(configDir),
    () => {
      const other = readState(configDir, { strict: true });
      if (other?.pid && other.pid !== state.pid && isRecordedSandbox(other)) return other;
      const start = state.pid === process.pid ? processStart(process.pid) : undefined;
      writeState(configDir, start ? { ...state, pidStart: start } : state);
      return undefined;
    },
    { what: 'the sandbox state file' },
  );
}

/**
 * What the file says, whether or not that sandbox still runs. `strict` (sandbox start and stop): a
 * file that is there but cannot be read is exit 2 naming it, since "no sandbox is running" then
 * left one running unannounced, and a second start beside it overwrote the first one's record.
 */
export function readState(configDir: string, o: { strict?: boolean } = {}): SandboxState | undefined {
  checkPrivate(configDir, 'directory');
  const file = stateFile(configDir);
  checkPrivate(file, 'file');
  tightenFile(file);
  let problem: string;
  let where = file;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
    const state = JSON.parse(text) as SandboxState;
    if (state && typeof state === 'object' && typeof state.baseUrl === 'string') return state;
    problem = 'it names no baseUrl';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (text === undefined) problem = (err as Error).message;
    else {
      // never JSON.parse's own message: node 20 quotes a piece of the file, which holds the client secret
      const at = syntaxErrorAt(text, (err as Error).message);
      where = `${file}:${at.line}:${at.column}`;
      problem = `not valid JSON: ${at.problem}`;
    }
  }
  if (!o.strict) return undefined;
  throw new UsageError(`${where} is not a readable sandbox state file (${problem})`, {
    hint: 'a sandbox may still run for it: stop that `bankctl sandbox start` process (ps shows it), then delete the file',
  });
}

/** The sandbox of the file, when its process is still alive. */
export function runningSandbox(configDir: string): SandboxState | undefined {
  const state = readState(configDir);
  return state && (!state.pid || (processAlive(state.pid) && !pidReused(state))) ? state : undefined;
}

/**
 * Whether the recorded pid now belongs to a process started after the sandbox (it was killed and
 * the system gave its pid away): known where /proc tells start times and the file recorded one.
 */
export function pidReused(state: SandboxState): boolean {
  return !!state.pid && pidGivenAway(state.pid, state.pidStart || undefined);
}

/** Whether the file's process is still the sandbox it recorded: a bankctl sandbox, started when it said. */
export function isRecordedSandbox(state: SandboxState): boolean {
  return !!state.pid && !pidReused(state) && isSandboxProcess(state.pid);
}

/**
 * Removes the file while it still names pid, under the file's lock as claimState writes it: a
 * sandbox that claimed the file since keeps it. Whether the file was removed (or was not there).
 */
export function removeState(configDir: string, pid: number): boolean {
  const file = stateFile(configDir);
  if (!existsSync(file)) return true;
  return withLockSync(
    file,
    () => {
      const current = readState(configDir);
      if (current?.pid !== undefined && current.pid !== pid) return false;
      rmSync(file, { force: true });
      return true;
    },
    { what: 'the sandbox state file' },
  );
}

/** The command line of a process (argv), or undefined when it cannot be known. */
export function commandLine(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter((a) => a !== '');
  } catch {
    // no /proc (macOS, BSD): ask ps
  }
  try {
    // loaded here, not at start-up: only `sandbox stop` and `start` ask
    const { execFileSync } = createRequire(import.meta.url)(
      'node:child_process',
    ) as typeof import('node:child_process');
    const out = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 });
    return out.trim() ? out.trim().split(/\s+/) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether pid is a live `bankctl sandbox start`: bankctl (bin/bankctl.js or the single executable)
 * with `sandbox` and then `start` among its arguments. A pid that the system has since given to
 * another program is not.
 */
export function isSandboxProcess(pid: number): boolean {
  if (!processAlive(pid)) return false;
  const argv = commandLine(pid);
  if (!argv) return false;
  const isBankctl = argv.slice(0, 2).some((a) => /^bankctl(\.js)?$/.test(basename(a)));
  const at = argv.indexOf('sandbox');
  return isBankctl && at >= 0 && argv.indexOf('start', at) > at;
}
