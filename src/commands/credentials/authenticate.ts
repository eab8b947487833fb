// `credentials authenticate ID`: renew the session at the bank without a full refresh.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { WalkOptions } from '../../flows/connect.js';
import { examples, type Run } from '../util.js';
import {
  addWalkFlags,
  changeInterruptibly,
  CREDENTIALS_VIEW,
  walkAfterRequest,
  walkOptions,
  type WalkFlags,
} from './shared.js';

export interface AuthenticateOptions {
  id: string;
  appUri?: string;
  walk?: WalkOptions;
}

export function newCmdAuthenticate(
  parent: Command,
  ctx: Context,
  run: Run<AuthenticateOptions> = authenticateRun,
): Command {
  const cmd = parent
    .command('authenticate')
    .description(
      'authenticate again at the bank to renew the session, without a full refresh (POST /api/v1/credentials/{id}/authenticate)',
    )
    .argument('<id>', 'credentials id')
    .option('--app-uri <url>', 'appUri for this authentication')
    .option('--wait', 'walk the authentication to a final status like `connect` does');
  addWalkFlags(cmd).action(async (id: string, o: WalkFlags & { appUri?: string; wait?: boolean }) => {
    const walk = o.wait ? await walkOptions(ctx, id, o) : undefined;
    await run(ctx, { id, appUri: o.appUri, walk });
  });
  return examples(cmd, ['bankctl credentials authenticate 6e68cc6287704273984567b3300c5822 --wait']);
}

export async function authenticateRun(ctx: Context, o: AuthenticateOptions): Promise<void> {
  const { authenticateCredentials } = await import('../../api/credentials.js');
  const api = await ctx.api();
  const walk = await walkAfterRequest(ctx, o.walk);
  await changeInterruptibly(
    ctx,
    o.id,
    `the authentication of credentials ${o.id} was being started`,
    (signal) => authenticateCredentials(api, o.id, o.appUri ? { appUri: o.appUri } : {}, { signal }),
    { busy: true },
  );
  if (!walk) {
    ctx.notice(
      `authentication of ${o.id} started; follow it with \`bankctl credentials watch${ctx.userFlag()} ${o.id}\``,
    );
    return;
  }
  const { render } = await import('../../output/render.js');
  await render(ctx, await walk(), CREDENTIALS_VIEW);
}
