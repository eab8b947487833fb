// `credentials`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdConnect } from './connect.js';
import { newCmdList } from './list.js';
import { newCmdGet } from './get.js';
import { newCmdCreate } from './create.js';
import { newCmdUpdate } from './update.js';
import { newCmdDelete } from './delete.js';
import { newCmdRefresh } from './refresh.js';
import { newCmdAuthenticate } from './authenticate.js';
import { newCmdSupplement } from './supplement.js';
import { newCmdQr } from './qr.js';
import { newCmdWatch } from './watch.js';

export function registerCredentials(noun: Command, ctx: Context): void {
  newCmdConnect(noun, ctx);
  newCmdList(noun, ctx);
  newCmdGet(noun, ctx);
  newCmdCreate(noun, ctx);
  newCmdUpdate(noun, ctx);
  newCmdDelete(noun, ctx);
  newCmdRefresh(noun, ctx);
  newCmdAuthenticate(noun, ctx);
  newCmdSupplement(noun, ctx);
  newCmdQr(noun, ctx);
  newCmdWatch(noun, ctx);
}
