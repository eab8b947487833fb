import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerWebhooksCreate } from './create.js';
import { registerWebhooksDelete } from './delete.js';
import { registerWebhooksList } from './list.js';
import { registerWebhooksListen } from './listen.js';

export function registerWebhooks(program: Command, ctx: Context): void {
  const webhooks = program
    .command('webhooks')
    .description('webhooks registered through the API, and a local receiver for them');
  registerWebhooksList(webhooks, ctx);
  registerWebhooksCreate(webhooks, ctx);
  registerWebhooksDelete(webhooks, ctx);
  registerWebhooksListen(webhooks, ctx);
}
