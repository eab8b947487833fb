// `webhooks endpoints`: the Events v2 registrations (/events/v2/webhook-endpoints, client token).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { examples } from '../../util.js';
import { newCmdCreate } from './create.js';
import { newCmdList } from './list.js';
import { newCmdGet } from './get.js';
import { newCmdUpdate } from './update.js';
import { newCmdDelete } from './delete.js';

export function registerWebhookEndpoints(webhooks: Command, ctx: Context): void {
  const endpoints = webhooks
    .command('endpoints')
    .description('Events v2 webhook endpoints: signed deliveries of refresh:finished, account and transaction events');
  newCmdCreate(endpoints, ctx);
  newCmdList(endpoints, ctx);
  newCmdGet(endpoints, ctx);
  newCmdUpdate(endpoints, ctx);
  newCmdDelete(endpoints, ctx);
  examples(endpoints, [
    'bankctl webhooks endpoints create --url https://hooks.example.com/tink --event refresh:finished --save-secret',
    'bankctl webhooks endpoints list',
    'bankctl webhooks listen --port 8080      # verifies X-Tink-Signature with the saved secret',
  ]);
}
