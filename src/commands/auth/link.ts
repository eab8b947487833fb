// `auth link`: connect a bank through the hosted link flow in a browser. A local callback server
// waits for the code, which is exchanged for a user token stored in the profile.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { stripControl } from '../../output/sanitize.js';
import type { CallbackServer, LinkResult } from '../../auth/link.js';
import { FlowFailedError, InterruptedError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, marketFlag, parseIntArg, splitList, type Run } from '../util.js';

export interface LinkOptions {
  scopes: string[];
  market?: string;
  locale?: string;
  provider?: string;
  username?: string;
  /** A Link session id (`bankctl auth link-session`). */
  session?: string;
  port: number;
  browser: boolean;
  waitS: number;
}

interface Flags {
  scope: string;
  market?: string;
  locale?: string;
  provider?: string;
  username?: string;
  session?: string;
  port: string;
  browser: boolean;
  waitTimeout: string;
}

export function newCmdLink(parent: Command, ctx: Context, run: Run<LinkOptions> = linkRun): Command {
  const cmd = parent
    .command('link')
    .description(
      'connect a bank through the hosted link flow in a browser; the user token and refresh token are stored in the profile',
    )
    .option(
      '--scope <scopes>',
      'scopes to ask for, comma-separated',
      'accounts:read,balances:read,transactions:read,provider-consents:read,credentials:read,user:read',
    )
    .option('--market <code>', 'market that limits the provider list')
    .option('--locale <locale>', 'en_US or sv_SE')
    .option('--provider <name>', 'go straight to this provider (input_provider)')
    .option('--username <name>', 'pre-fill the username (input_username)')
    .option('--session <id>', 'start with a Link session from `bankctl auth link-session` (session_id)')
    .option(
      '--port <port>',
      'port of the local callback server (redirect_uri http://localhost:<port>/callback; 0 picks a free one)',
      '3000',
    )
    .option('--no-browser', 'print the URL but do not open a browser')
    .option('--wait-timeout <seconds>', 'give up when no callback came within this time', '300')
    .action(async (o: Flags) => run(ctx, linkFromFlags(o)));
  return examples(cmd, [
    'bankctl auth link --market SE --provider se-test-password',
    'bankctl auth link --no-browser --port 3000 --scope accounts:read,transactions:read',
  ]);
}

function linkFromFlags(o: Flags): LinkOptions {
  const port = parseIntArg(o.port, '--port', { min: 0, max: 65535 })!;
  const waitS = parseIntArg(o.waitTimeout, '--wait-timeout', { min: 1 })!;
  if (o.locale && !['en_US', 'sv_SE'].includes(o.locale))
    throw new UsageError(`--locale: the link flow speaks en_US and sv_SE, not "${o.locale}"`);
  const scopes = splitList(o.scope, '--scope');
  // an unknown market would open the flow on an empty provider list
  const market = marketFlag(o.market);
  return {
    scopes,
    market,
    locale: o.locale,
    provider: o.provider,
    username: o.username,
    session: o.session,
    port,
    browser: o.browser,
    waitS,
  };
}

export async function linkRun(ctx: Context, o: LinkOptions): Promise<void> {
  const settings = await ctx.settings();
  const clientId = settings.value('client-id');
  if (!clientId) throw new UsageError('a client id is needed: `bankctl auth login` or --client-id');
  const tm = await ctx.tokens();
  const link = await import('../../auth/link.js');
  const state = link.newState();
  const server = await listen(ctx, link, o.port, state);
  const redirectUri = `http://localhost:${server.port}/callback`;
  const url = link.authorizeUrl({ ...o, linkUrl: settings.value('link-url')!, clientId, redirectUri, state });
  let result: LinkResult;
  try {
    ctx.io.stderr.write(`Open this address to connect a bank:\n\n  ${url}\n\n`);
    const opened = o.browser ? await link.openBrowser(url, ctx.env) : false;
    ctx.notice(
      opened
        ? 'Your browser has been opened; waiting for the callback...'
        : `Waiting for the callback on ${redirectUri}...`,
    );
    result = await waitForCallback(ctx, server, o.waitS);
  } finally {
    await server.close();
  }
  if (result.kind === 'error') {
    // every parameter the callback carried, each stripped of terminal controls (network text)
    const details = Object.entries(result.details)
      .map(([k, v]) => `${k} ${stripControl(v)}`)
      .join(', ');
    throw new FlowFailedError(
      `the link flow ended in ${stripControl(result.error)}${result.message ? `: ${stripControl(result.message)}` : ''}${details ? ` (${details})` : ''}`,
    );
  }
  if (result.credentialsId) ctx.notice(`credentials ${stripControl(result.credentialsId)} connected`);
  if (result.transactionReportId)
    ctx.notice(
      `transaction report ${result.transactionReportId}: \`bankctl transactions report ${result.transactionReportId}\``,
    );
  const token = await tm.exchange(result.code);
  tm.remember(token, 'link', { refreshExpiresAt: ctx.clock.now() + 24 * 60 * 60 * 1000 });
  ctx.notice(
    `user token stored in profile "${ctx.profileName()}"${token.refresh_token ? ' with a refresh token (`bankctl auth refresh`)' : ''}`,
  );
  await render(ctx, token);
}

/** The callback server; a port in use is a usage error. Each rejected callback is a warning. */
async function listen(
  ctx: Context,
  link: typeof import('../../auth/link.js'),
  port: number,
  state: string,
): Promise<CallbackServer> {
  try {
    return await link.startCallbackServer(port, state, (why) => ctx.warn(why));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} is in use; pick another with --port (the redirect URI must be registered for it)`,
      );
    throw err;
  }
}

/** The first callback with the right state; Ctrl-C (130) or the deadline (9) end the wait. */
async function waitForCallback(ctx: Context, server: CallbackServer, waitS: number): Promise<LinkResult> {
  let stopWaiting!: (e: Error) => void;
  const stopped = new Promise<never>((_r, reject) => (stopWaiting = reject));
  const offInterrupt = ctx.claimInterrupt(() =>
    stopWaiting(new InterruptedError('interrupted: the link flow was abandoned')),
  );
  const timer = setTimeout(
    () =>
      stopWaiting(
        new FlowFailedError(`no callback within ${waitS} s; the link flow was abandoned`, {
          hint: 'raise --wait-timeout',
        }),
      ),
    waitS * 1000,
  );
  try {
    return await Promise.race([server.result, stopped]);
  } finally {
    clearTimeout(timer);
    offInterrupt();
  }
}
