// The running sandbox publishes itself in <config dir>/sandbox.json (0600) so that `sandbox stop`
// finds it and the default profile can use its client without `auth login`.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxState } from './settings.js';

export function stateFile(configDir: string): string {
  return join(configDir, 'sandbox.json');
}

export function writeState(configDir: string, state: SandboxState): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const file = stateFile(configDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** What the file says, whether or not that sandbox still runs. */
export function readState(configDir: string): SandboxState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(configDir), 'utf8')) as SandboxState;
  } catch {
    return undefined;
  }
}

/** The sandbox of the file, when its process is still alive. */
export function runningSandbox(configDir: string): SandboxState | undefined {
  const state = readState(configDir);
  return state && (!state.pid || processAlive(state.pid)) ? state : undefined;
}

export function removeState(configDir: string, pid?: number): void {
  const current = readState(configDir);
  if (pid !== undefined && current?.pid !== undefined && current.pid !== pid) return;
  rmSync(stateFile(configDir), { force: true });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
