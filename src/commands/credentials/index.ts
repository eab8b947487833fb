import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerCredentialsList } from './list.js';
import { registerCredentialsGet } from './get.js';
import { registerCredentialsCreate } from './create.js';
import { registerCredentialsUpdate } from './update.js';
import { registerCredentialsDelete } from './delete.js';
import { registerCredentialsRefresh } from './refresh.js';
import { registerCredentialsAuthenticate } from './authenticate.js';
import { registerCredentialsSupplement } from './supplement.js';
import { registerCredentialsQr } from './qr.js';
import { registerCredentialsWatch } from './watch.js';
import { registerCredentialsConnect } from './connect.js';

export function registerCredentials(program: Command, ctx: Context): void {
  const credentials = program
    .command('credentials')
    .description("a user's connections to banks: connect, follow and manage them");
  registerCredentialsConnect(credentials, ctx);
  registerCredentialsList(credentials, ctx);
  registerCredentialsGet(credentials, ctx);
  registerCredentialsCreate(credentials, ctx);
  registerCredentialsUpdate(credentials, ctx);
  registerCredentialsDelete(credentials, ctx);
  registerCredentialsRefresh(credentials, ctx);
  registerCredentialsAuthenticate(credentials, ctx);
  registerCredentialsSupplement(credentials, ctx);
  registerCredentialsQr(credentials, ctx);
  registerCredentialsWatch(credentials, ctx);
}
