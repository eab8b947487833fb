// `auth link-session`: a Link session (POST /link/v1/session, client token, link-session:write): data
// for the hosted flow that should not travel in its URL. One use, ten minutes; pass its id to
// `auth link --session`.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { LinkSessionRequest } from '../../api/user.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';

export interface LinkSessionOptions {
  body: LinkSessionRequest;
}

interface Flags {
  externalReference?: string;
  merchantId?: string;
  personalIdentifier?: string;
  sourceAccountNumber?: string;
  firstName?: string;
  lastName?: string;
}

export function sessionFromFlags(f: Flags): LinkSessionOptions {
  const body: LinkSessionRequest = {};
  if (f.externalReference !== undefined) body.externalReference = f.externalReference;
  if (f.merchantId !== undefined) body.merchantId = f.merchantId;
  if (f.personalIdentifier !== undefined) body.personalIdentifier = f.personalIdentifier;
  if (f.sourceAccountNumber !== undefined) body.sourceAccountNumber = f.sourceAccountNumber;
  if (f.firstName !== undefined || f.lastName !== undefined) {
    body.user = {};
    if (f.firstName !== undefined) body.user.firstName = f.firstName;
    if (f.lastName !== undefined) body.user.lastName = f.lastName;
  }
  return { body };
}

export function newCmdLinkSession(
  parent: Command,
  ctx: Context,
  run: Run<LinkSessionOptions> = linkSessionRun,
): Command {
  const cmd = parent
    .command('link-session')
    .description(
      'create a Link session for the hosted flow (POST /link/v1/session, client token, link-session:write); one use, 10 minutes',
    )
    .option('--external-reference <ref>', 'your reference, carried into the transaction report')
    .option('--merchant-id <id>', 'the merchant')
    .option('--personal-identifier <id>', "the user's personal identifier (kept out of the URL)")
    .option('--source-account-number <number>', 'the account the user will connect')
    .option('--first-name <name>', "the user's first name")
    .option('--last-name <name>', "the user's last name")
    .action(async (f: Flags) => run(ctx, sessionFromFlags(f)));
  return examples(cmd, [
    'bankctl auth link-session --external-reference order-42',
    'bankctl auth link --session "$(bankctl auth link-session -o json | jq -r .sessionId)" --provider se-test-password',
  ]);
}

export async function linkSessionRun(ctx: Context, o: LinkSessionOptions): Promise<void> {
  const { createLinkSession } = await import('../../api/user.js');
  const sessionId = await createLinkSession(await ctx.api(), o.body);
  ctx.notice('use it once within 10 minutes: `bankctl auth link --session <id>`');
  await render(ctx, { sessionId }, { columns: [{ header: 'sessionId', path: 'sessionId' }] });
}
