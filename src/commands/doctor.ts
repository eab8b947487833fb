import { realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createServer } from 'node:net';
import type { Command } from 'commander';
import { serverVersion } from '../api/general.js';
import { maskUrlPassword } from '../config/display.js';
import { settingProblems } from '../config/checks.js';
import { SETTING_KEYS } from '../config/store.js';
import { listConnectorWebhooks } from '../api/webhooks.js';
import type { Context } from '../context.js';
import { ApiError, FlowFailedError, withHint } from '../errors.js';
import { examples, parseIntArg } from './util.js';

export const DEFAULT_LISTEN_PORT = 8080;

interface Check {
  check: string;
  status: 'ok' | 'fail' | 'skip';
  detail: string;
}

const MAX_SKEW_MS = 60_000;

/** What the steps learn and leave for the next ones. */
interface Run {
  ctx: Context;
  add: (check: string, status: Check['status'], detail: string) => void;
  listenPort: number;
  baseUrl?: string;
  reachable: boolean;
}

/** One step: adds its checks; false stops the run (nothing after it can be checked). */
type Step = (r: Run) => Promise<boolean | void>;

async function configFile({ ctx, add }: Run): Promise<boolean> {
  configDirectory(ctx.configDir, add);
  try {
    const config = await ctx.config();
    // opening the config tightened a file others could read: its mode before that is the finding
    let mode = config.tightened.get(config.file);
    try {
      mode ??= statSync(config.file).mode & 0o777;
    } catch {
      /* missing */
    }
    // a --profile never saved is this check's failure: "ok (profile prod)" above a base URL that
    // failed naming the profile read as if prod were in use
    ctx.requireSavedProfile(config);
    if (mode === undefined) add('config file', 'ok', `none yet at ${config.file} (defaults in use)`);
    else {
      config.profile(ctx.profileName());
      if (mode & 0o077)
        add(
          'config file',
          'fail',
          `${config.file} was readable by others (mode ${mode.toString(8)}); bankctl has now tightened it to 600`,
        );
      else add('config file', 'ok', `${config.file} readable and private (profile ${ctx.profileName()})`);
    }
    return true;
  } catch (err) {
    // a directory or file others may write is refused by opening it: its message names the fix
    add('config file', 'fail', withHint(err));
    return false;
  }
}

/**
 * The config directory: one that others may write is refused before this (they could swap the files
 * bankctl reads its secrets and base URL from); one they may only read or enter is used (each file
 * in it is 600) but reported, since the names and sizes of the files show and bankctl makes it 700.
 * It is not tightened by itself: BANKCTL_CONFIG_DIR may name a directory that holds more than bankctl's.
 */
function configDirectory(dir: string, add: Run['add']): void {
  if (process.getuid?.() === undefined) return add('config directory', 'skip', 'no POSIX modes here (Windows)');
  let mode: number;
  let uid: number;
  try {
    ({ mode, uid } = statSync(dir));
    mode &= 0o777;
  } catch {
    const parent = openParent(dir);
    return parent
      ? add('config directory', 'fail', parent)
      : add('config directory', 'ok', `none yet at ${dir} (bankctl creates it 700)`);
  }
  if (uid !== process.getuid?.())
    return add('config directory', 'fail', `${dir} is owned by another user (uid ${uid}); bankctl refuses to use it`);
  if (mode & 0o022)
    add(
      'config directory',
      'fail',
      `${dir} can be written by others (mode ${mode.toString(8)}): they could swap its files, so bankctl refuses to use it; \`chmod 700 ${dir}\` if its content is yours`,
    );
  else if (mode & 0o077)
    add(
      'config directory',
      'fail',
      `${dir} is open to others (mode ${mode.toString(8)}) where bankctl makes it 700: its files are 600, but their names show; \`chmod 700 ${dir}\``,
    );
  else {
    const parent = openParent(dir);
    if (parent) add('config directory', 'fail', parent);
    else add('config directory', 'ok', `${dir} private (mode ${mode.toString(8)})`);
  }
}

/**
 * A directory above the config directory that another user may rename entries in: one of theirs
 * (not root's), or one its group or others may write without the sticky bit (/tmp has it). They
 * could move the config directory aside and put their own in its place between bankctl's check of
 * it and its read of the files (the check OpenSSH's StrictModes makes of ~/.ssh's parents). Its
 * words, else undefined. Only reported: bankctl cannot know the directories above are not meant so.
 */
function openParent(dir: string): string | undefined {
  const uid = process.getuid?.();
  // the directories above the path as given (a symlink there can be swapped too) and above its target
  const paths = [resolve(dir)];
  try {
    paths.push(realpathSync(dir));
  } catch {
    // not there yet: bankctl would create it where it is named
  }
  for (const path of paths) {
    for (let p = dirname(path); ; p = dirname(p)) {
      try {
        const st = statSync(p);
        const mode = st.mode & 0o7777;
        if (st.uid !== uid && st.uid !== 0)
          return `${dir} lies in ${p}, owned by another user (uid ${st.uid}): they could swap the config directory for their own`;
        if (mode & 0o022 && !(mode & 0o1000))
          return `${dir} lies in ${p}, which ${mode & 0o002 ? 'every user' : 'its group'} may write (mode ${mode.toString(8)}): they could swap the config directory for their own; \`chmod go-w ${p}\`, or a BANKCTL_CONFIG_DIR elsewhere`;
      } catch {
        // not there (yet) or not ours to stat: nothing to say about it
      }
      if (dirname(p) === p) break;
    }
  }
  return undefined;
}

async function baseUrlAndProxy(r: Run): Promise<boolean> {
  try {
    r.baseUrl = await r.ctx.baseUrl();
  } catch (err) {
    r.add('base URL', 'fail', (err as Error).message);
    return false;
  }
  // every setting no request could use, each on its line, judged as `config explain` and the
  // commands judge them (config/checks.ts); the base URL has its own line above
  const settings = await r.ctx.settings();
  const keys = SETTING_KEYS.filter((k) => k !== 'base-url');
  const problems = await settingProblems(settings, keys, r.ctx.profileName());
  for (const p of problems) r.add('settings', 'fail', p);
  if (problems.length > 0) return false;
  let proxy: string | undefined;
  try {
    proxy = (await r.ctx.http()).proxyFor(r.baseUrl);
  } catch (err) {
    // a proxy setting that is no URL, or another setting every request needs that cannot be used
    // (BANKCTL_TIMEOUT=abc, a --ca-file that is not there): every request would be refused the same
    // way. Named as what it is: a bad timeout read "✗ proxy: timeout must be ..."
    r.add(/proxy/i.test((err as Error).message) ? 'proxy' : 'settings', 'fail', withHint(err));
    return false;
  }
  r.add('proxy', 'ok', proxy ? `requests to ${new URL(r.baseUrl).host} go through ${proxy}` : 'none in use');
  return true;
}

/** Reachability, TLS and the clock, from one GET /version. */
async function reachability(r: Run): Promise<void> {
  const { ctx, add } = r;
  const baseUrl = r.baseUrl!;
  const settings = await ctx.settings();
  try {
    const started = ctx.clock.now();
    const v = await serverVersion(await ctx.api(), { timeoutMs: 5000 });
    r.reachable = true;
    add(
      'base URL',
      'ok',
      `${maskUrlPassword(baseUrl)} answers (server ${String(v.version.version ?? '?')}, ${ctx.clock.now() - started} ms)`,
    );
    if (baseUrl.startsWith('https:')) {
      const pins = settings.value('pin');
      const extra = settings.value('ca-file') ? ' (with the extra CA file)' : '';
      add('TLS', 'ok', `certificate valid${extra}${pins ? ', pin matches' : ''}`);
    } else add('TLS', 'skip', 'plain http (the real service is https only)');
    const serverMs = v.date ? Date.parse(v.date) : NaN;
    if (Number.isNaN(serverMs)) add('clock', 'skip', 'the server sent no Date header');
    else {
      const skew = ctx.clock.now() - serverMs;
      const text = `${skew >= 0 ? '+' : ''}${(skew / 1000).toFixed(1)} s against the server`;
      const off = Math.abs(skew) > MAX_SKEW_MS;
      add('clock', off ? 'fail' : 'ok', off ? `${text}: token expiry will be misjudged; fix the system clock` : text);
    }
  } catch (err) {
    const msg = (err as Error).message;
    add('base URL', 'fail', withHint(err));
    if (baseUrl.startsWith('https:') && /TLS|certificate|pin/i.test(msg))
      add('TLS', 'fail', (err as { hint?: string }).hint ?? msg);
  }
}

async function clientCredentials({ ctx, add, reachable }: Run): Promise<void> {
  const settings = await ctx.settings();
  if (!settings.value('client-id') || !settings.value('client-secret'))
    return add('client credentials', 'skip', 'not configured (`bankctl auth login`)');
  if (!reachable) return add('client credentials', 'skip', 'the service is not reachable');
  const client = settings.value('client-id');
  try {
    await (await ctx.tokens()).requestClientToken(['authorization:grant']);
    add('client credentials', 'ok', `client ${client} accepted (${settings.get('client-id')!.source})`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400)
      add('client credentials', 'ok', `client ${client} accepted (it may not hold authorization:grant)`);
    else add('client credentials', 'fail', withHint(err));
  }
}

async function connectorToken({ ctx, add, reachable }: Run): Promise<void> {
  const settings = await ctx.settings();
  const token = settings.value('connector-token');
  if (!token) return add('connector token', 'skip', 'not configured');
  if (!reachable) return add('connector token', 'skip', 'the service is not reachable');
  try {
    const api = await ctx.api();
    await listConnectorWebhooks(api.as({ connectorToken: token, elsewhere: api.caller.elsewhere }), { retries: 0 });
    add('connector token', 'ok', `accepted (${settings.get('connector-token')!.source})`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403))
      add('connector token', 'fail', err.message);
    else add('connector token', 'skip', `could not be verified: ${(err as Error).message}`);
  }
}

async function listenerPort({ add, listenPort: port }: Run): Promise<void> {
  const free = await new Promise<string | undefined>((resolve) => {
    const srv = createServer();
    srv.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(undefined)));
  });
  add(
    'webhook listener port',
    free ? 'fail' : 'ok',
    free ? `port ${port} is not free (${free}); use \`webhooks listen --port\`` : `port ${port} is free`,
  );
}

/** The checks, in order. */
const STEPS: Step[] = [configFile, baseUrlAndProxy, reachability, clientCredentials, connectorToken, listenerPort];

/** `doctor`: fills in the `doctor` command src/program.ts made (with its description). */
export function registerDoctor(doctor: Command, ctx: Context): void {
  const cmd = doctor
    .option('--listen-port <port>', 'the webhook listener port to check', String(DEFAULT_LISTEN_PORT))
    .action(async (o: { listenPort: string }) => {
      const checks: Check[] = [];
      const listenPort = parseIntArg(o.listenPort, '--listen-port', { min: 1, max: 65535 })!;
      const run: Run = {
        ctx,
        add: (check, status, detail) => checks.push({ check, status, detail }),
        listenPort,
        reachable: false,
      };
      for (const step of STEPS) if ((await step(run)) === false) break;
      return finish(ctx, checks);
    });
  examples(cmd, ['bankctl doctor', 'bankctl doctor --profile prod -o json']);
}

async function finish(ctx: Context, checks: Check[]): Promise<void> {
  // the output rules: human lines on a terminal, json when stdout is not one (or with -o json);
  // -o table/csv/ndjson as for any command
  const format = ctx.globals.output ?? ctx.env.BANKCTL_OUTPUT ?? (ctx.io.stdoutIsTTY ? 'lines' : 'json');
  if (format !== 'lines') {
    const { render } = await import('../output/render.js');
    await render(ctx, checks, {
      columns: [
        { header: 'check', path: 'check' },
        { header: 'status', path: 'status' },
        { header: 'detail', path: 'detail' },
      ],
    });
  } else {
    const mark = {
      ok: ctx.stdoutColor ? '\x1b[32m✓\x1b[0m' : '✓',
      fail: ctx.stdoutColor ? '\x1b[31m✗\x1b[0m' : '✗',
      skip: '-',
    };
    for (const c of checks) ctx.io.stdout.write(`${mark[c.status]} ${c.check}: ${c.detail}\n`);
  }
  const failed = checks.filter((c) => c.status === 'fail');
  if (failed.length > 0)
    throw new FlowFailedError(
      `${failed.length} check${failed.length > 1 ? 's' : ''} failed: ${[...new Set(failed.map((c) => c.check))].join(', ')}`,
    );
}
