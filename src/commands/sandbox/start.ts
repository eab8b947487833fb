import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomHex } from '../../fs/atomic.js';
import { fileError } from '../../fs/errors.js';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { BankctlError, ConflictError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import type { SandboxState } from '../../config/settings.js';
import { examples, parseIntArg, shapingFlag } from '../util.js';
import { FAULT_KINDS, type FaultKind } from '../../contract/faults.js';
import { binPath } from './state.js';
import { selfArgs } from '../../single-executable.js';
import { claimState, ensurePrivateDir, isRecordedSandbox, readState, removeState } from '../../config/sandbox-state.js';
import { tightenFile } from '../../config/private.js';
import { benchHooks, benchOptions, benchStartOptions } from './start-bench.js';
import { checkDataFile, lockDataFile } from './data-file.js';
import { awaitReady, human, stopChild } from './detach-wait.js';

interface StartOpts {
  port: string;
  host: string;
  seed?: string;
  authDelay?: string;
  latency?: string;
  faultRate?: string;
  faults?: string;
  tls?: boolean;
  data?: string;
  detach?: boolean;
  clock?: string;
  fixtures?: string;
  bodies?: boolean;
}

export function registerSandboxStart(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('start')
    .description('run the local emulator of the service until Ctrl-C (or in the background with --detach)')
    .option('--port <port>', 'port to listen on (0: any free port)', '8787')
    .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('--seed <n>', 'deterministic ids, secrets and demo data')
    .option('--auth-delay <ms>', 'how long simulated eID, app and redirect waits take', '1500')
    .option('--latency <ms>', 'extra latency added to every response')
    .option('--fault-rate <r>', 'share of requests (0..1) answered with an injected fault; deterministic with --seed')
    .option('--faults <kinds>', `fault kinds, comma-separated: ${FAULT_KINDS.join(',')}`, FAULT_KINDS.join(','))
    .option('--data <file>', 'keep the state in this file (atomic snapshots) and load it at start')
    .option('--tls', 'serve https with a CA and certificate generated at start (readiness adds caFile and pin)')
    .option('--detach', 'start in the background and return once it is ready; stop it with `bankctl sandbox stop`');
  benchOptions(cmd).action(async (o: StartOpts) => {
    const port = parseIntArg(o.port, '--port', { min: 0, max: 65535 })!;
    const seed = parseIntArg(o.seed, '--seed');
    const authDelayMs = parseIntArg(o.authDelay, '--auth-delay') ?? 1500;
    const latencyMs = parseIntArg(o.latency, '--latency');
    const faultRate = o.faultRate === undefined ? 0 : Number(o.faultRate);
    if (!Number.isFinite(faultRate) || faultRate < 0 || faultRate > 1)
      throw new UsageError(`--fault-rate must be a number from 0 to 1, got "${o.faultRate}"`);
    const kinds = (o.faults ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    for (const k of kinds)
      if (!(FAULT_KINDS as readonly string[]).includes(k))
        throw new UsageError(`unknown fault kind "${k}"`, { hint: `use ${FAULT_KINDS.join(', ')}` });
    if (o.host !== '127.0.0.1' && o.host !== 'localhost' && o.host !== '::1') {
      ctx.warn(
        `the sandbox listens on ${o.host}: other machines can reach it, and its client secret is not a real secret`,
      );
    }
    // --clock and --fixtures are checked before anything starts
    const hooks = await benchHooks(await benchStartOptions(ctx, o));
    const dataFile = o.data ? resolve(ctx.io.cwd, o.data) : undefined;
    if (dataFile) checkDataFile(dataFile);
    refuseSecond(ctx);
    if (o.detach) return detach(ctx, o);
    // released once the last snapshot is written, or by the cleanup of a start that failed
    const releaseData = dataFile ? lockDataFile(ctx, dataFile) : undefined;
    const { startSandbox } = await import('../../sandbox/index.js');
    let sandbox;
    try {
      sandbox = await startSandbox({
        port,
        host: o.host,
        seed,
        authDelayMs,
        latencyMs,
        faults: faultRate > 0 ? { rate: faultRate, kinds: kinds as FaultKind[], seed } : undefined,
        tls: o.tls ? { dir: ctx.configDir } : undefined,
        dataFile,
        log: (l) => ctx.io.stderr.write(`sandbox: ${l}\n`),
        ...hooks.options,
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new UsageError(`port ${port} on ${o.host} is already in use`, {
          // a sandbox of this config directory was refused above (exit 5): this is someone else's
          hint: 'another program listens there, or the sandbox of another config directory (`sandbox stop` with its BANKCTL_CONFIG_DIR); pick another --port (--port 0 takes any free one)',
        });
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on ${o.host}: ${code}`);
      if (o.data && /state file|regular file|a directory|EACCES|EISDIR/.test((err as Error).message))
        throw new UsageError(`--data: ${(err as Error).message}`);
      throw err;
    }
    const state: SandboxState = {
      baseUrl: sandbox.baseUrl,
      linkUrl: sandbox.linkUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      connectorToken: sandbox.connectorToken,
      pid: process.pid,
      ...(sandbox.caFile ? { caFile: sandbox.caFile, pin: sandbox.pin } : {}),
    };
    await claimOrClose(ctx, sandbox, { ...state, ...(dataFile ? { dataFile } : {}) });
    // what this sandbox wrote as its CA: removed when it stops, unless another has written its own since
    const caPem = sandbox.caFile ? readText(sandbox.caFile) : undefined;
    await hooks.ready(ctx, sandbox, state);
    await printReady(ctx, state);
    await new Promise<void>((resolve) => {
      const off = ctx.claimInterrupt(() => {
        off();
        resolve();
      });
    });
    ctx.notice('sandbox: stopping');
    await sandbox.close();
    releaseData?.();
    removeState(ctx.configDir, process.pid);
    if (caPem !== undefined) removeOwnCa(sandbox.caFile!, caPem);
    // stopped by Ctrl-C or `sandbox stop` (SIGTERM): the contract's code for an interruption
    ctx.exitCode = ExitCode.INTERRUPTED;
  });
  examples(cmd, [
    'bankctl sandbox start                       # foreground, Ctrl-C stops it',
    'bankctl sandbox start --detach --port 8787  # background; `bankctl sandbox stop`',
    'eval "$(bankctl sandbox start --detach --port 0 -o json | jq -r \'"export BANKCTL_BASE_URL=\\(.baseUrl)"\')"',
  ]);
}

/**
 * Records this sandbox as the config directory's one; when another runs there, or the directory
 * cannot be written, the server is closed first: none is left listening on a port nobody was told.
 */
async function claimOrClose(ctx: Context, sandbox: { close(): Promise<void> }, state: SandboxState): Promise<void> {
  let other: SandboxState | undefined;
  try {
    other = claimState(ctx.configDir, state);
  } catch (err) {
    await sandbox.close();
    throw err;
  }
  if (other) {
    await sandbox.close();
    throw alreadyRunning(ctx, other);
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Removes the CA file of a --tls sandbox that stops: the CA's key lived only in that process, the
 * next start makes a new one, and a left file looked like something still to trust. A file that
 * another sandbox has rewritten since is its own and stays.
 */
function removeOwnCa(file: string, pem: string): void {
  if (readText(file) === pem) rmSync(file, { force: true });
}

/** One sandbox per config directory: a second one would orphan the first (its state is lost). */
function refuseSecond(ctx: Context): void {
  const other = readState(ctx.configDir, { strict: true });
  if (other?.pid && other.pid !== process.pid && isRecordedSandbox(other)) throw alreadyRunning(ctx, other);
}

function alreadyRunning(ctx: Context, other: SandboxState): ConflictError {
  return new ConflictError(`a sandbox is already running for ${ctx.configDir}: pid ${other.pid} at ${other.baseUrl}`, {
    hint: '`bankctl sandbox stop` first, or set BANKCTL_CONFIG_DIR to another directory',
  });
}

/** A failure of the detached child, with its exit code and its own one-line reason. */
class DetachedStartError extends BankctlError {
  override readonly exitCode: number;
  constructor(message: string, exitCode: number, hint?: string) {
    super(message, { hint });
    this.exitCode = exitCode;
  }
}

/** The last error line the child wrote to the log since `from` (its size before the start). */
function childError(logFile: string, from: number): { message: string; hint?: string } | undefined {
  let text: string;
  try {
    const size = statSync(logFile).size;
    const fd = openSync(logFile, 'r');
    try {
      const buf = Buffer.alloc(Math.min(size - from, 64 * 1024));
      readSync(fd, buf, 0, buf.length, Math.max(from, size - buf.length));
      text = buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const line = text
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('error: '));
  if (!line) return undefined;
  const m = /^error: (.*?)(?: \((.*)\))?$/.exec(line)!;
  return { message: m[1]!, hint: m[2] };
}

async function printReady(ctx: Context, s: SandboxState): Promise<void> {
  const ready = {
    baseUrl: s.baseUrl,
    linkUrl: s.linkUrl,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    connectorToken: s.connectorToken,
    ...(s.caFile ? { caFile: s.caFile, pin: s.pin } : {}),
  };
  // --jq and --fields shape the ready object as they do every command's answer (they were ignored)
  if (shapingFlag(ctx.globals)) {
    const { render } = await import('../../output/render.js');
    return render(ctx, ready);
  }
  const format = await ctx.outputFormat();
  if (format === 'json' || format === 'ndjson') {
    ctx.io.stdout.write(`${JSON.stringify(ready)}\n`);
    return;
  }
  ctx.io.stdout.write(
    [
      `Sandbox ready at ${s.baseUrl}`,
      `  link URL         ${s.linkUrl}`,
      `  client id        ${s.clientId}`,
      `  client secret    ${s.clientSecret}`,
      `  connector token  ${s.connectorToken}`,
      ...(s.caFile ? [`  CA file          ${s.caFile}`, `  pin              sha256/${s.pin}`] : []),
      '',
      await whoUsesIt(ctx, s),
      s.pid === process.pid ? 'Press Ctrl-C to stop.' : 'Stop it with `bankctl sandbox stop`.',
      '',
    ].join('\n'),
  );
}

/** Whether the profile in use takes this sandbox and its client, or why not (and what to do). */
async function whoUsesIt(ctx: Context, s: SandboxState): Promise<string> {
  const name = ctx.profileName();
  const own = (await ctx.config()).profile(name);
  const flag = name === 'default' ? '' : ` --profile ${name}`;
  if (own['base-url'] && own['base-url'] !== s.baseUrl)
    return `The profile "${name}" points at ${own['base-url']}, not at this sandbox (\`bankctl config unset base-url${flag}\` makes it follow the sandbox).`;
  if (own['client-id'] && own['client-id'] !== s.clientId)
    return `The profile "${name}" has a client of its own (from \`auth login\`), which this sandbox does not know: \`bankctl auth logout${flag}\` lets it use the sandbox's client.`;
  return `The profile "${name}" uses this client automatically while the sandbox runs.`;
}

/**
 * The detached sandbox writes its lock and sandbox.json in the config directory, and its error to
 * the log there: on a full or read-only disk it could not even say why it stopped. So the directory
 * is tried first, and its failure is one line naming it and the reason.
 */
function probeWritable(configDir: string): void {
  const probe = join(configDir, `.sandbox.${randomHex(6)}.probe`);
  try {
    writeFileSync(probe, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    rmSync(probe, { force: true });
    throw fileError(err, configDir, 'write', 'the config directory');
  }
  rmSync(probe, { force: true });
}

async function detach(ctx: Context, o: StartOpts): Promise<void> {
  const args = [
    ...selfArgs(binPath),
    'sandbox',
    'start',
    '--port',
    o.port,
    '--host',
    o.host,
    '--auth-delay',
    o.authDelay ?? '1500',
    '-o',
    'json',
  ];
  if (o.seed) args.push('--seed', o.seed);
  if (o.latency) args.push('--latency', o.latency);
  if (o.tls) args.push('--tls');
  if (o.data) args.push('--data', resolve(ctx.io.cwd, o.data));
  if (o.clock) args.push('--clock', o.clock);
  if (o.fixtures) args.push('--fixtures', resolve(ctx.io.cwd, o.fixtures));
  if (o.bodies) args.push('--bodies');
  if (o.faultRate) args.push('--fault-rate', o.faultRate, '--faults', o.faults ?? FAULT_KINDS.join(','));
  const logFile = join(ctx.configDir, 'sandbox.log');
  ensurePrivateDir(ctx.configDir);
  probeWritable(ctx.configDir);
  // an older version's log (or one made by hand) may be readable by others: it gets request URLs
  tightenFile(logFile);
  const log = openSync(logFile, 'a', 0o600);
  const logStart = statSync(logFile).size;
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', log],
    env: { ...ctx.env, BANKCTL_CONFIG_DIR: ctx.configDir } as NodeJS.ProcessEnv,
  });
  closeSync(log);
  const data = o.data ? resolve(ctx.io.cwd, o.data) : undefined;
  const outcome = await awaitReady(ctx, child, data);
  if (outcome.kind === 'ready') {
    child.stdout!.destroy();
    child.unref();
    const ready = JSON.parse(outcome.line) as SandboxState;
    await printReady(ctx, { ...ready, pid: child.pid });
    return;
  }
  if (outcome.kind === 'exited') {
    // the child's own one-line reason (a port in use, a bad --data file), not "see the log"
    const reason = childError(logFile, logStart);
    if (reason) throw new DetachedStartError(reason.message, outcome.code ?? ExitCode.UNEXPECTED, reason.hint);
    throw new UsageError(
      `the sandbox did not start (exit ${outcome.code ?? 'by a signal'}) and wrote no reason to ${logFile}`,
      { hint: 'run `bankctl sandbox start` in the foreground to see why' },
    );
  }
  // given up on, or this command was stopped: the child goes too, before anything says so
  const stopped = await stopChild(child);
  child.stdout!.destroy();
  const fate = stopped
    ? `stopped it (pid ${child.pid})`
    : `could not stop it (pid ${child.pid}: \`kill -KILL -${child.pid}\`)`;
  if (outcome.kind === 'interrupted') throw new InterruptedError(`interrupted while the sandbox was starting; ${fate}`);
  const loading = data && existsSync(data);
  throw new DetachedStartError(
    `the sandbox was not ready after ${human(outcome.waitedMs)}${loading ? ` (loading ${data})` : ''}; ${fate}; see ${logFile}`,
    // a timeout, as the contract's exit codes say
    ExitCode.NETWORK,
    loading ? 'a foreground `bankctl sandbox start --data ...` waits as long as its file takes to load' : undefined,
  );
}
