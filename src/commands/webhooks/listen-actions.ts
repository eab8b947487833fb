// What `webhooks listen` does with an accepted event (print, forward) and its registration.
import { request } from 'undici';
import type { Context } from '../../context.js';
import { ServerError, UsageError } from '../../errors.js';
import { writeJson } from '../../contract/exact-json.js';
import { jsonForStdout } from '../../output/terminal.js';
import { fieldsRequest, project } from '../../output/fields.js';
import type { ReceivedEvent } from './receiver.js';
import { V1_HOOK_KEYS } from '../../api/webhooks.js';
import { stripControl } from '../../output/sanitize.js';
import { SIGNATURE_HEADER } from '../../contract/webhook-signature.js';

export interface RegisterOpts {
  registerVia: string;
}

/**
 * Subscribes the listener as an Events v2 endpoint: the service generates the secret, which
 * `useSecret` hands to the receiver. Returns how to remove the endpoint.
 */
export async function registerV2(
  ctx: Context,
  url: string,
  events: string[],
  useSecret: (secret: string) => void,
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  const api = await ctx.api();
  const w = await import('../../api/webhooks.js');
  const created = await w.createWebhookEndpoint(
    api,
    { url, enabledEvents: events, description: 'bankctl webhooks listen' },
    { signal },
  );
  if (typeof created.secret !== 'string' || created.secret === '') {
    // no delivery to it could be verified: the endpoint is of no use to this run, nor to anyone
    const removed = await w.deleteWebhookEndpoint(api, created.id).then(
      () => true,
      () => false,
    );
    throw new ServerError(
      `POST /events/v2/webhook-endpoints created endpoint ${created.id} but answered without its secret: no delivery could be verified`,
      {
        hint: removed
          ? 'the endpoint was removed again'
          : `remove it with \`bankctl webhooks endpoints delete ${created.id}\``,
      },
    );
  }
  api.http.redactor.add(created.secret);
  useSecret(created.secret);
  ctx.notice(`registered Events v2 endpoint ${created.id} -> ${url}`);
  return async () => {
    try {
      await w.deleteWebhookEndpoint(api, created.id);
      ctx.notice(`removed webhook endpoint ${created.id}`);
    } catch (err) {
      ctx.warn(
        `could not remove webhook endpoint ${created.id}: ${(err as Error).message}; remove it with \`bankctl webhooks endpoints delete ${created.id}\``,
      );
    }
  };
}

/** Subscribes the listener; returns how to remove the subscription. */
export async function register(
  ctx: Context,
  o: RegisterOpts,
  url: string,
  secret: string,
  events: string[],
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  const api = await ctx.api();
  api.http.redactor.add(secret);
  const w = await import('../../api/webhooks.js');
  const via = o.registerVia === 'connector' ? 'connector' : 'api';
  const created =
    via === 'connector'
      ? await w.createConnectorWebhook(api, { url, secret, events }, { signal })
      : await w.createHook(api, { url, secret, events }, { signal });
  // both creates are exit 7 when the service names no id: there would be nothing to remove on exit
  const id = created.id;
  ctx.notice(
    `registered webhook ${id} (${via === 'connector' ? 'connector, all users' : created.userId ? `API, user ${created.userId}` : 'API, all users'}) -> ${url}`,
  );
  return async () => {
    try {
      if (via === 'connector') await w.deleteConnectorWebhook(api, id);
      else await w.deleteHook(api, id);
      ctx.notice(`removed webhook ${id}`);
    } catch (err) {
      ctx.warn(
        `could not remove webhook ${id}: ${(err as Error).message}; remove it with \`bankctl ${via === 'connector' ? 'connector webhooks' : 'webhooks'} delete ${id}\``,
      );
    }
  };
}

/**
 * Accepted events on stdout; a v1 body's secret is left out. Numbers are written as the sender wrote
 * them (the receiver reads the body exactly; writeJson gives an ExactNumber its literal back).
 * `--fields` keeps those paths of each event and `--jq` filters each event (one result a line), as
 * `-o ndjson` does elsewhere; a jq error on one event is said on stderr (and returned: the run then
 * ends with exit 2) and the listener goes on.
 */
export async function print(ctx: Context, event: ReceivedEvent, pretty: boolean): Promise<string | undefined> {
  let shown: Record<string, unknown> = event;
  // the secret is left out under either key a v1 body may carry it
  for (const key of V1_HOOK_KEYS) {
    const hook = shown[key];
    if (!hook || typeof hook !== 'object') continue;
    const { secret: _secret, ...rest } = hook as Record<string, unknown>;
    shown = { ...shown, [key]: rest };
  }
  const fields = fieldsRequest(ctx.globals.fields);
  if (fields.kind === 'paths') shown = project(shown, fields.paths) as Record<string, unknown>;
  if (ctx.globals.jq !== undefined) {
    const { runJq } = await import('../../output/jq.js');
    const { jqForStdout } = await import('../../output/render.js');
    try {
      const out = await runJq(writeJson(shown), ctx.globals.jq, true, (t) => ctx.io.stderr.write(t));
      ctx.io.stdout.write(jqForStdout(ctx, out));
    } catch (err) {
      const message = (err as Error).message;
      ctx.warn(`${stripControl(event.event)}: ${message}; the event was accepted, not printed`);
      return message;
    }
    return undefined;
  }
  if (!pretty) {
    ctx.io.stdout.write(`${jsonForStdout(ctx, writeJson(shown))}\n`);
    return undefined;
  }
  // writeJson (JSON.stringify) escapes C0 controls; C1 controls and bidi overrides are escaped on a terminal
  const when = new Date(ctx.clock.now()).toISOString();
  const body = fields.kind === 'paths' ? shown : event.content;
  ctx.io.stdout.write(`--- ${when} ${stripControl(event.event)}\n${jsonForStdout(ctx, writeJson(body, 2))}\n\n`);
  return undefined;
}

/**
 * What `webhooks listen` checks of the output options before it listens: `--fields help` lists the
 * paths of an answer, and a listener has none yet; a --jq that does not compile would fail on every
 * event. Both are exit 2 before the port is opened.
 */
export async function checkListenOutput(ctx: Context): Promise<void> {
  if (fieldsRequest(ctx.globals.fields).kind === 'list')
    throw new UsageError('--fields help lists the paths of an answer, and `webhooks listen` has none yet', {
      hint: 'give the paths to keep, e.g. --fields event,content.credentialsId',
    });
  if (ctx.globals.jq === undefined) return;
  const { jqCompileProblem } = await import('../../output/jq.js');
  const problem = await jqCompileProblem(ctx.globals.jq);
  if (problem) throw new UsageError(`--jq: ${problem}`);
}

/** A forward that did not reach its target with a 2xx: the exit code the run ends with, and why. */
export interface ForwardFailure {
  /** 8: no answer (unreachable, refused, timed out); 9: an answer that is not 2xx. */
  exitCode: 8 | 9;
  reason: string;
}

/**
 * POSTs the body as received to --forward-to, with the X-Tink-Signature it came with (an Events v2
 * body carries no secret: without the header the target could not verify it); its answer (capped)
 * goes to stderr. Returns what failed (undefined for a 2xx, and for a forward cut off by Ctrl-C,
 * which ends the run with 130 anyway).
 */
export async function forward(
  ctx: Context,
  target: URL,
  event: string,
  raw: Buffer,
  signature?: string,
  stop?: AbortSignal,
): Promise<ForwardFailure | undefined> {
  const timeoutMs = Math.max(1, (await ctx.numberSetting('timeout')) * 1000);
  if (stop?.aborted) {
    ctx.io.stderr.write(`did not forward ${stripControl(event)} to ${target.origin}${target.pathname}: interrupted\n`);
    return undefined;
  }
  const started = ctx.clock.now();
  const where = `${target.origin}${target.pathname}`;
  try {
    // plain undici.request never follows redirects
    const res = await request(target, {
      method: 'POST',
      body: raw,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'bankctl-webhooks-listen',
        ...(signature !== undefined ? { [SIGNATURE_HEADER]: signature } : {}),
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // `stop` (Ctrl-C) ends a forward at once: a target that does not answer held the listener
      // deaf to Ctrl-C for the whole --timeout
      signal: stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs),
    });
    let text = '';
    for await (const chunk of res.body) {
      text += chunk.toString();
      if (text.length > 2048) {
        res.body.destroy();
        break;
      }
    }
    const shown = stripControl(text.replace(/\s+/g, ' ').trim()).slice(0, 200);
    ctx.io.stderr.write(
      `forwarded ${stripControl(event)} to ${where}: ${res.statusCode} (${ctx.clock.now() - started} ms)${shown ? ` ${shown}` : ''}\n`,
    );
    // a redirect is not followed: the target did not take the event either
    if (res.statusCode < 200 || res.statusCode > 299)
      return { exitCode: 9, reason: `${where} answered ${res.statusCode}` };
    return undefined;
  } catch (err) {
    const e = err as { code?: string; name?: string; cause?: { code?: string } };
    const code = stop?.aborted
      ? 'interrupted'
      : e.name === 'TimeoutError'
        ? 'timed out'
        : (e.code ?? e.cause?.code ?? e.name ?? 'failed');
    ctx.io.stderr.write(`forwarded ${stripControl(event)} to ${where}: failed (${code})\n`);
    return stop?.aborted ? undefined : { exitCode: 8, reason: `${where}: ${code}` };
  }
}
