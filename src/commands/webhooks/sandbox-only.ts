// `webhooks deliveries` and `webhooks resend` read the sandbox's own delivery log (/sandbox/...):
// against a profile that points at another service they stop before sending anything, with exit 2
// and the reason; a server that turns out not to be the sandbox (404 "no such endpoint", 405) is
// reported the same way.
import type { Context } from '../../context.js';
import { runningSandbox } from '../../config/sandbox-state.js';
import { sourceName, type Source } from '../../config/settings.js';
import { ApiError, UsageError } from '../../errors.js';

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

function needsSandbox(ctx: Context, what: string, where: string, source?: Source): UsageError {
  const who = source === 'flag' || source === 'env' ? sourceName('base-url', source) : `profile "${ctx.profileName()}"`;
  return new UsageError(`\`${what}\` needs the bankctl sandbox: ${who} points at ${where}, which is not it`, {
    hint: 'start one with `bankctl sandbox start` (and leave base-url unset), or use a profile whose base-url is the sandbox',
  });
}

/**
 * Runs fn when the profile's service can be the sandbox; a 405, or a 404 that `ownNotFound` does not
 * claim as the sandbox's own answer (an unknown delivery), means the server is not the sandbox.
 */
export async function sandboxOnly<T>(
  ctx: Context,
  what: string,
  fn: () => Promise<T>,
  ownNotFound: (message: string) => boolean = () => false,
): Promise<T> {
  const setting = (await ctx.settings()).get('base-url');
  const base = new URL(await ctx.baseUrl());
  const running = runningSandbox(ctx.configDir);
  const isRunning = running !== undefined && safeOrigin(running.baseUrl) === base.origin;
  if (setting?.source !== 'sandbox' && !isRunning) {
    if (!isLoopback(base.hostname)) throw needsSandbox(ctx, what, base.origin, setting?.source);
    // a loopback URL that is not this config's sandbox: asked first, so that nothing else (a
    // client token) fails in its place with advice about credentials
    const { isSandbox } = await import('../../api/sandbox.js');
    if (!(await isSandbox(await ctx.api()))) throw needsSandbox(ctx, what, base.origin, setting?.source);
  }
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 405 || (err.status === 404 && !ownNotFound(err.serviceMessage))))
      throw needsSandbox(ctx, what, base.origin, setting?.source);
    throw err;
  }
}

function safeOrigin(u: string): string | undefined {
  try {
    return new URL(u).origin;
  } catch {
    return undefined;
  }
}
