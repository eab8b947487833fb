// `connector webhooks create --url U --event E`: a webhook for every user, old and new.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { createConnectorWebhook } from '../../../api/webhooks.js';
import { examples, type Run } from '../../util.js';
import {
  addCreateFlags,
  HOOK_COLUMNS,
  registrationFromFlags,
  renderHooks,
  type CreateFlags,
  type Registration,
} from '../../webhooks/shared.js';

export type CreateOptions = Registration;

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = addCreateFlags(
    parent.command('create').description('register a webhook (POST /connector/webhooks)'),
  ).action(async (o: CreateFlags) => run(ctx, await registrationFromFlags(ctx, o)));
  return examples(cmd, [
    'echo "$SECRET" | bankctl connector webhooks create --url https://hooks.example.com/in --event transaction:create --event transaction:update --secret-stdin',
    'BANKCTL_WEBHOOK_SECRET=s3cr3t bankctl connector webhooks create --url https://hooks.example.com/in --event credentials:update',
  ]);
}

export async function createRun(ctx: Context, reg: CreateOptions): Promise<void> {
  const created = await createConnectorWebhook(await ctx.api(), reg);
  ctx.notice(`registered webhook ${created.id} for ${reg.events.join(', ')}`);
  await renderHooks(ctx, created, HOOK_COLUMNS);
}
