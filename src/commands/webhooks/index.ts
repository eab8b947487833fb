// `webhooks`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdList } from './list.js';
import { newCmdCreate } from './create.js';
import { newCmdDelete } from './delete.js';
import { newCmdListen } from './listen.js';
import { registerWebhookEndpoints } from './endpoints/index.js';
import { newCmdDeliveries } from './deliveries.js';
import { newCmdResend } from './resend.js';

export function registerWebhooks(noun: Command, ctx: Context): void {
  newCmdList(noun, ctx);
  newCmdCreate(noun, ctx);
  newCmdDelete(noun, ctx);
  newCmdListen(noun, ctx);
  registerWebhookEndpoints(noun, ctx);
  newCmdDeliveries(noun, ctx);
  newCmdResend(noun, ctx);
}
