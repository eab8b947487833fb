// `webhooks create --url U --event E`: register a webhook through the API (all users, or --user's).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createHook } from '../../api/webhooks.js';
import { examples, type Run } from '../util.js';
import {
  addCreateFlags,
  API_HOOK_COLUMNS,
  registrationFromFlags,
  renderHooks,
  type CreateFlags,
  type Registration,
} from './shared.js';

export type CreateOptions = Registration;

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = addCreateFlags(
    parent
      .command('create')
      .description(
        "register a webhook through the API (POST /api/v1/hooks, scope user:web_hooks); with a user (--user, BANKCTL_USER or the profile's) for that user only",
      ),
  ).action(async (o: CreateFlags) => run(ctx, await registrationFromFlags(ctx, o)));
  return examples(cmd, [
    'echo "$SECRET" | bankctl webhooks create --url https://hooks.example.com/in --event credentials:update --event transaction:create --secret-stdin',
    'BANKCTL_WEBHOOK_SECRET=s3cr3t bankctl webhooks create --url https://hooks.example.com/in --event signable-operation:update --user 6e68cc...',
  ]);
}

export async function createRun(ctx: Context, reg: CreateOptions): Promise<void> {
  const created = await createHook(await ctx.api(), reg);
  // a user token registers for that user only: say so when the user was not named on the command line
  const implicit = !ctx.globals.user && !ctx.globals.externalUser && created.global === false;
  ctx.notice(
    `registered webhook ${created.id ?? ''} for ${reg.events.join(', ')}${
      implicit
        ? `, for user ${created.userId ?? ''} only (the acting user from the profile or BANKCTL_USER; without one it is for all users)`
        : ''
    }`,
  );
  await renderHooks(ctx, created, API_HOOK_COLUMNS);
}
