// `connector webhooks`: registrations that concern all users, old and new (connector-api.md 4).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { newCmdList } from './list.js';
import { newCmdCreate } from './create.js';
import { newCmdDelete } from './delete.js';

export function registerConnectorWebhooks(connector: Command, ctx: Context): void {
  const webhooks = connector
    .command('webhooks')
    .description('webhooks registered through the connector: every user, old and new');
  newCmdList(webhooks, ctx);
  newCmdCreate(webhooks, ctx);
  newCmdDelete(webhooks, ctx);
}
