// Runs the CLI in-process with injected IO, or as a real process (bin/bankctl.js, built by `npm test`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../../src/main.js';
import { testIO } from '../../src/io.js';
import type { ContextOptions } from '../../src/context.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'bankctl.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const made: string[] = [];

/** Removes the temporary directories made so far (test/helpers/setup.ts runs it after each file). */
export function cleanupTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A temporary directory, removed after the test file. */
export function tempDir(prefix = 'bankctl-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** In-process: run(argv, io) with the given environment (nothing from process.env leaks in). */
export async function runCli(
  args: string[],
  opts: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    stdinIsTTY?: boolean;
    stdoutIsTTY?: boolean;
    stderrIsTTY?: boolean;
    context?: ContextOptions;
  } = {},
): Promise<CliResult> {
  const io = testIO({
    env: opts.env ?? {},
    stdin: opts.stdin ?? '',
    stdinIsTTY: opts.stdinIsTTY,
    stdoutIsTTY: opts.stdoutIsTTY,
    stderrIsTTY: opts.stderrIsTTY,
  });
  const code = await run(args, io, opts.context);
  return { code, stdout: io.out(), stderr: io.err() };
}

/** A real process: node bin/bankctl.js with a clean environment plus `env`. */
export function spawnCli(
  args: string[],
  opts: {
    env?: Record<string, string | undefined>;
    stdin?: string | Buffer;
    timeoutMs?: number;
    /** Called with all of stderr so far each time more arrives: to act on what the CLI says while it runs. */
    onStderr?: (soFar: string) => void;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      opts.onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === 'SIGINT' ? 130 : 1), stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}
