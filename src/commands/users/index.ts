// `users`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdCreate } from './create.js';
import { newCmdDelete } from './delete.js';
import { newCmdGet } from './get.js';
import { newCmdUpdate } from './update.js';
import { registerUsersProfile } from './profile/index.js';

export function registerUsers(noun: Command, ctx: Context): void {
  newCmdCreate(noun, ctx);
  newCmdDelete(noun, ctx);
  newCmdGet(noun, ctx);
  newCmdUpdate(noun, ctx);
  registerUsersProfile(noun, ctx);
}
