import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerUsersCreate } from './create.js';
import { registerUsersDelete } from './delete.js';

export function registerUsers(program: Command, ctx: Context): void {
  const users = program.command('users').description('create and delete end users');
  registerUsersCreate(users, ctx);
  registerUsersDelete(users, ctx);
}
