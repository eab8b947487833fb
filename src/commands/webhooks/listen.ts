// `webhooks listen`: a local receiver for the service's webhook calls. Prints accepted events
// (pretty on a TTY, one JSON object a line otherwise), optionally forwards them, and with
// --register subscribes itself for the length of its run. Ctrl-C ends it with 130 (the contract's
// code for an interrupted command), after the registration is removed.
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { FlowFailedError, InterruptedError, NetworkError, UsageError } from '../../errors.js';
import { V2_DATA_EVENTS, V2_EVENTS, WEBHOOK_EVENTS } from '../../api/webhooks.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../../contract/webhook-signature.js';
import { stripControl } from '../../output/sanitize.js';
import { collect, examples, parseIntArg, type Run } from '../util.js';
import { parseEvents, readSecret, SECRET_ENV, SECRET_SETTING, type SecretOpts } from './shared.js';
import { DEFAULT_MAX_BODY, WebhookReceiver } from './receiver.js';
import { checkListenOutput, forward, print, register, registerV2, type ForwardFailure } from './listen-actions.js';

export const DEFAULT_LISTEN_PORT = 8080;

export interface ListenOptions {
  port: number;
  host: string;
  secret: string;
  /** Empty: every event. */
  events: string[];
  once: boolean;
  waitMs?: number;
  forwardTo?: URL;
  register: boolean;
  registerVia: 'api' | 'connector' | 'events-v2';
  publicUrl?: string;
  maxBody: number;
  readTimeoutMs: number;
  /** Events v2: how far the signature's timestamp may be from now, seconds. */
  toleranceSeconds: number;
}

interface Flags extends SecretOpts {
  port: string;
  host: string;
  event?: string[];
  once?: boolean;
  waitTimeout?: string;
  forwardTo?: string;
  register?: boolean;
  registerVia?: string;
  publicUrl?: string;
  maxBody: string;
  readTimeout: string;
  tolerance: string;
}

export function newCmdListen(parent: Command, ctx: Context, run: Run<ListenOptions> = listenRun): Command {
  const cmd = parent
    .command('listen')
    .description(
      'receive webhook calls locally (v1, and Events v2 signed with X-Tink-Signature): check them, print accepted events, optionally forward them',
    )
    .option('--port <port>', 'port to listen on (0: any free port)', String(DEFAULT_LISTEN_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--secret <secret>',
      `the secret: v1's webhook.secret (webHook in spec 6), Events v2's signing secret (prefer --secret-stdin or ${SECRET_ENV}; default: the profile's ${SECRET_SETTING}; generated with --register)`,
    )
    .option('--secret-stdin', 'read the secret from the first line of standard input')
    .option(
      '--event <name>',
      `print and wait for only these events (repeatable): ${[...WEBHOOK_EVENTS, ...V2_EVENTS].join(', ')}`,
      collect,
    )
    .option(
      '--once',
      'exit after the first accepted event that matches: 0, or with --forward-to 8 (target unreachable, timed out) or 9 (not 2xx) when its forward failed',
    )
    .option(
      '--wait-timeout <seconds>',
      'exit 9 when no matching event came in this time (`--timeout S` given here means the same)',
    )
    .option(
      '--forward-to <url>',
      "POST each matching event's body to this URL too, and print its answer on stderr; a run that ends by itself exits 8 or 9 when a forward failed",
    )
    .option(
      '--register',
      'register this listener with the service for its run (the --event names, or all of the kind) and remove it on exit',
    )
    .option(
      '--register-via <side>',
      'where --register registers: api (POST /api/v1/hooks), connector (POST /connector/webhooks) or events-v2 (POST /events/v2/webhook-endpoints; the default when every --event is a v2 one)',
    )
    .option(
      '--public-url <url>',
      "the URL --register gives the service (default: this listener's own loopback URL), e.g. a tunnel",
    )
    .option('--max-body <bytes>', 'largest body accepted; larger ones are answered 413', String(DEFAULT_MAX_BODY))
    .option('--read-timeout <seconds>', 'a request not received in full within this time is answered 408', '10')
    .option(
      '--tolerance <seconds>',
      'Events v2: refuse (412) a signature whose timestamp is further than this from now',
      String(DEFAULT_TOLERANCE_SECONDS),
    )
    .action(async (o: Flags, command: Command) => run(ctx, await listenFromFlags(ctx, o, command)));
  completeOption(cmd, '--register-via', () => ['api', 'connector', 'events-v2']);
  return examples(cmd, [
    'bankctl webhooks listen --register --event credentials:update      # subscribe for this run, Ctrl-C removes it',
    'echo "$SECRET" | bankctl webhooks listen --secret-stdin --port 8080 --forward-to http://localhost:3000/hooks',
    'bankctl webhooks listen --register --once --event signable-operation:update --wait-timeout 60 -o json > event.json',
    'bankctl webhooks listen --register --register-via connector --event transaction:create | jq .content',
    "bankctl webhooks listen --register --event transaction:create --jq '.content | {id, amount: .amount.value}'",
    'bankctl webhooks listen --register --event refresh:finished --event account-transactions:modified   # Events v2',
    'bankctl webhooks endpoints create --url https://hooks.example.com/in --event refresh:finished --save-secret && bankctl webhooks listen',
  ]);
}

function seconds(raw: string, flag: string): number {
  const n = Number(raw);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive number of seconds, got "${raw}"`);
  return n;
}

function httpUrl(raw: string, flag: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`${flag}: "${raw}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${flag} must be an http(s) URL`);
  return u;
}

async function listenFromFlags(ctx: Context, o: Flags, command: Command): Promise<ListenOptions> {
  const port = parseIntArg(o.port, '--port', { min: 0, max: 65535 })!;
  const maxBody = parseIntArg(o.maxBody, '--max-body', { min: 1 })!;
  const readTimeoutMs = seconds(o.readTimeout, '--read-timeout') * 1000;
  const events = parseEvents(o.event, 'both');
  const toleranceSeconds = seconds(o.tolerance, '--tolerance');
  // The root's --timeout (per-request HTTP timeout) takes `--timeout S` wherever it is written; the
  // contract's `webhooks listen --timeout S` is honoured when given on the command line.
  const waitRaw =
    o.waitTimeout ?? (command.getOptionValueSourceWithGlobals('timeout') === 'cli' ? ctx.globals.timeout : undefined);
  const waitMs =
    waitRaw === undefined
      ? undefined
      : seconds(waitRaw, o.waitTimeout !== undefined ? '--wait-timeout' : '--timeout') * 1000;
  const forwardTo = o.forwardTo ? httpUrl(o.forwardTo, '--forward-to') : undefined;
  const v2 = events.filter((e) => (V2_EVENTS as readonly string[]).includes(e));
  const registerVia = o.registerVia ?? (events.length > 0 && v2.length === events.length ? 'events-v2' : 'api');
  if (registerVia !== 'api' && registerVia !== 'connector' && registerVia !== 'events-v2')
    throw new UsageError(`--register-via must be one of api, connector, events-v2, got "${registerVia}"`);
  if (o.publicUrl && !o.register) throw new UsageError('--public-url only makes sense with --register');
  if (o.register && (registerVia === 'events-v2' ? v2.length !== events.length : v2.length > 0))
    throw new UsageError(
      registerVia === 'events-v2'
        ? '--register-via events-v2 takes Events v2 names only in --event'
        : `--register-via ${registerVia} takes v1 event names only; ${v2.join(', ')} ${v2.length === 1 ? 'is' : 'are'} Events v2`,
      { hint: 'register v1 and v2 events in separate listeners, or with `bankctl webhooks endpoints create`' },
    );
  let secret = await readSecret(ctx, o);
  if (!secret && o.register) {
    // an Events v2 endpoint's secret comes from the service when the listener registers
    secret = randomBytes(24).toString('base64url');
  } else if (!secret) {
    secret = (await ctx.settings()).value(SECRET_SETTING);
    if (!secret)
      throw new UsageError(`a secret is required: --secret-stdin, ${SECRET_ENV} or --secret`, {
        hint: `with --register one is generated for the run; \`webhooks endpoints create --save-secret\` keeps one in the profile (${SECRET_SETTING})`,
      });
    (await ctx.http()).redactor.add(secret);
  }
  return {
    port,
    host: o.host,
    secret,
    events,
    once: Boolean(o.once),
    waitMs,
    forwardTo,
    register: Boolean(o.register),
    registerVia,
    publicUrl: o.publicUrl,
    maxBody,
    readTimeoutMs,
    toleranceSeconds,
  };
}

type End = 'once' | 'timeout' | 'interrupt' | 'stdout-closed';

/** How the run ends: the first reason given wins. */
function ending() {
  let finish: (why: End) => void = () => undefined;
  const done = new Promise<End>((resolve) => (finish = resolve));
  return { done, finish: (why: End) => finish(why) };
}

export async function listenRun(ctx: Context, o: ListenOptions): Promise<void> {
  if (!['127.0.0.1', 'localhost', '::1'].includes(o.host))
    ctx.warn(`listening on ${o.host}: other machines can reach this receiver; only the secret keeps their calls out`);
  const pretty = (await ctx.outputFormat()) === 'table';
  await checkListenOutput(ctx);
  const { done, finish } = ending();
  let matched = 0;
  /** --jq errors on accepted events: the run still ends, with exit 2 rather than 0. */
  const jqFailures: string[] = [];
  let forwarding: Promise<void> = Promise.resolve();
  let forwarded = 0;
  /** Forwards that got no 2xx: the run then ends with the last one's code, not 0. */
  const forwardFailures: ForwardFailure[] = [];
  // Ctrl-C ends the requests on their way at once (the registration, the forwards): each waited out
  // its --timeout, deaf to the signal; the registration then said "timed out" with exit 8
  const requests = new AbortController();
  const receiver = new WebhookReceiver({
    host: o.host,
    port: o.port,
    secret: o.secret,
    maxBodyBytes: o.maxBody,
    readTimeoutMs: o.readTimeoutMs,
    toleranceSeconds: o.toleranceSeconds,
    onRefused: (status, reason, req) =>
      ctx.notice(`refused ${stripControl(req.method)} ${stripControl(req.path)}: ${status} ${reason}`),
    onEvent: async (event, raw, signature) => {
      if (o.events.length > 0 && !o.events.includes(event.event)) return;
      if (o.once && matched > 0) return;
      matched++;
      const jqError = await print(ctx, event, pretty);
      if (jqError !== undefined) jqFailures.push(jqError);
      if (o.forwardTo)
        forwarding = forwarding.then(async () => {
          forwarded++;
          const failed = await forward(ctx, o.forwardTo!, event.event, raw, signature, requests.signal);
          if (failed) forwardFailures.push(failed);
        });
      if (o.once) void forwarding.then(() => finish('once'));
    },
  });
  await start(receiver, o);
  const stopping = new Stopping(ctx, () => {
    finish('interrupt');
    requests.abort(new InterruptedError('interrupted'));
  });
  // `listen | head -1`: the reader went away; stop (and deregister) instead of crashing on EPIPE
  const onStdoutError = (err: NodeJS.ErrnoException) => finish(err.code === 'EPIPE' ? 'stdout-closed' : 'interrupt');
  ctx.io.stdout.on('error', onStdoutError);
  let unregister: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failure: unknown;
  try {
    const localUrl = localUrlOf(o.host, receiver.address.port);
    const url = o.publicUrl ?? `${localUrl}webhooks`;
    if (o.register) unregister = await registerUntilInterrupted(ctx, o, url, receiver, requests.signal);
    ctx.notice(
      `listening on ${localUrl} for ${o.events.length ? o.events.join(', ') : 'all events'}${o.once ? ', until the first one' : ''} (Ctrl-C to stop)`,
    );
    if (o.waitMs !== undefined) timer = setTimeout(() => finish('timeout'), o.waitMs);
    const why = await done;
    stopping.ending = true;
    // the wait ends the listening; it is a failure only when no matching event came in it
    if (why === 'timeout' && matched === 0) {
      const what = o.events.length ? o.events.join(' or ') : 'webhook';
      throw new FlowFailedError(`no ${what} event came within ${o.waitMs! / 1000} s`);
    }
    await forwarding;
    if (why === 'timeout') ctx.notice(`stopped listening after ${o.waitMs! / 1000} s and ${matched} event(s)`);
    if (why !== 'interrupt' && forwardFailures.length > 0) throw forwardFailed(forwardFailures, forwarded, o.once);
    if (why !== 'interrupt' && jqFailures.length > 0)
      throw new UsageError(
        `${jqFailures[jqFailures.length - 1]} (${jqFailures.length} of ${matched} event(s) not printed)`,
      );
    if (why === 'interrupt')
      throw new InterruptedError(
        o.once && matched === 0 ? 'interrupted before an event came' : `stopped listening after ${matched} event(s)`,
      );
  } catch (err) {
    failure = err;
  }
  if (timer) clearTimeout(timer);
  await receiver.close();
  stopping.ending = true;
  const left = unregister ? await Promise.race([unregister().then(() => 'removed' as const), stopping.gaveUp]) : '';
  ctx.io.stdout.off('error', onStdoutError);
  stopping.release();
  if (left === 'gave-up')
    throw new InterruptedError('interrupted again: the webhook registration was left in place', {
      hint: `remove it with \`bankctl ${o.registerVia === 'connector' ? 'connector webhooks' : o.registerVia === 'events-v2' ? 'webhooks endpoints' : 'webhooks'} list\` and \`delete\``,
    });
  if (failure !== undefined) throw failure;
}

/** The error a run ends with when forwards failed: 8 (no answer) or 9 (not 2xx), the last one's. */
function forwardFailed(failures: ForwardFailure[], forwarded: number, once: boolean): Error {
  const last = failures[failures.length - 1]!;
  const message = once
    ? `the event was not forwarded: ${last.reason}`
    : `${failures.length} of ${forwarded} forward(s) failed, the last: ${last.reason}`;
  return last.exitCode === 8 ? new NetworkError(message) : new FlowFailedError(message);
}

/**
 * --register: subscribes the listener (its secret handed to the receiver for Events v2); the abort
 * (Ctrl-C) ends the wait for the service at once, with where to look for what it may have made.
 */
async function registerUntilInterrupted(
  ctx: Context,
  o: ListenOptions,
  url: string,
  receiver: WebhookReceiver,
  signal: AbortSignal,
): Promise<() => Promise<void>> {
  const registration =
    o.registerVia === 'events-v2'
      ? registerV2(ctx, url, o.events.length ? o.events : [...V2_DATA_EVENTS], (s) => receiver.setSecret(s), signal)
      : register(ctx, o, url, o.secret, o.events.length ? o.events : [...WEBHOOK_EVENTS], signal);
  // the token request made first takes no signal: the race ends the wait for it too
  const interrupted = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );
  interrupted.catch(() => undefined);
  registration.catch(() => undefined);
  try {
    return await Promise.race([registration, interrupted]);
  } catch (err) {
    if (!signal.aborted) throw err;
    const list =
      o.registerVia === 'connector'
        ? 'connector webhooks'
        : o.registerVia === 'events-v2'
          ? 'webhooks endpoints'
          : 'webhooks';
    throw new InterruptedError('interrupted while registering the listener', {
      hint: `the service may have made the registration before it was stopped: look for ${url} in \`bankctl ${list} list\` and delete it`,
    });
  }
}

/**
 * Ctrl-C ends the run; one more during the clean-up gives up waiting for the deregistration.
 * conf's dependency when-exit re-raises the first SIGINT at once: an echo within 300 ms is ignored.
 */
class Stopping {
  ending = false;
  readonly gaveUp: Promise<'gave-up'>;
  readonly release: () => void;
  private giveUp: () => void = () => undefined;
  private last = 0;

  constructor(ctx: Context, interrupt: () => void) {
    this.gaveUp = new Promise((resolve) => (this.giveUp = () => resolve('gave-up')));
    this.release = ctx.claimInterrupt(() => {
      const now = ctx.clock.now();
      const echo = now - this.last < 300;
      this.last = now;
      if (echo) return;
      if (this.ending) this.giveUp();
      else interrupt();
    });
  }
}

async function start(receiver: WebhookReceiver, o: ListenOptions): Promise<void> {
  try {
    await receiver.start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${o.port} on ${o.host} is already in use`, {
        hint: 'pick another --port, or --port 0 for any free one',
      });
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES')
      throw new UsageError(`cannot listen on ${o.host}:${o.port}: ${code}`);
    throw err;
  }
}

/** The URL the listener answers on, for people and for --register. */
function localUrlOf(host: string, port: number): string {
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${h === '[::]' ? '[::1]' : h}:${port}/`;
}
