// `users profile`: the user's profile (GET and PUT /api/v1/user/profile).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { newCmdProfileGet } from './get.js';
import { newCmdProfileSet } from './set.js';

export function registerUsersProfile(users: Command, ctx: Context): void {
  const profile = users.command('profile').description("the user's profile: locale, time zone, periods, notifications");
  newCmdProfileGet(profile, ctx);
  newCmdProfileSet(profile, ctx);
}
