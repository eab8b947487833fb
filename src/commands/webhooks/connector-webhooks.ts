// `connector webhooks list|create|delete` (connector-api.md 4): registrations that concern all
// users, old and new. Called from the connector noun: registerConnectorWebhooks(connector, ctx).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { createConnectorWebhook, deleteConnectorWebhook, listConnectorWebhooks } from '../../api/webhooks.js';
import { examples } from '../util.js';
import { addCreateFlags, registrationFromFlags, type CreateOpts } from './create.js';
import { HOOK_COLUMNS, renderHooks } from './shared.js';

export function registerConnectorWebhooks(connector: Command, ctx: Context): void {
  const webhooks = connector
    .command('webhooks')
    .description('webhooks registered through the connector: every user, old and new');

  const list = webhooks
    .command('list')
    .description('list the registered webhooks (GET /connector/webhooks)')
    .action(async () => {
      const api = await ctx.api();
      await renderHooks(ctx, await listConnectorWebhooks(api), HOOK_COLUMNS);
    });
  examples(list, ['bankctl connector webhooks list', 'bankctl connector webhooks list -o json']);

  const create = addCreateFlags(
    webhooks.command('create').description('register a webhook (POST /connector/webhooks)'),
  ).action(async (o: CreateOpts) => {
    const reg = await registrationFromFlags(ctx, o);
    const api = await ctx.api();
    const created = await createConnectorWebhook(api, reg);
    ctx.notice(`registered webhook ${created.id ?? '(the service gave no id)'} for ${reg.events.join(', ')}`);
    await renderHooks(ctx, created, HOOK_COLUMNS);
  });
  examples(create, [
    'echo "$SECRET" | bankctl connector webhooks create --url https://hooks.example.com/in --event transaction:create --event transaction:update --secret-stdin',
    'BANKCTL_WEBHOOK_SECRET=s3cr3t bankctl connector webhooks create --url https://hooks.example.com/in --event credentials:update',
  ]);

  const del = webhooks
    .command('delete')
    .argument('<id>', 'the webhook id (from `bankctl connector webhooks list`)')
    .description('remove a webhook (DELETE /connector/webhooks/{id})')
    .action(async (id: string) => {
      const api = await ctx.api();
      await deleteConnectorWebhook(api, id);
      ctx.notice(`deleted webhook ${id}`);
    });
  examples(del, ['bankctl connector webhooks delete 3f1c0d9a8b7e4f6a9c2d1e0f3a4b5c6d']);
}
