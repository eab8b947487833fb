import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerLogin } from './login.js';
import { registerStatus } from './status.js';
import { registerToken } from './token.js';
import { registerGrant } from './grant.js';
import { registerExchange } from './exchange.js';
import { registerRefresh } from './refresh.js';
import { registerRevokeAll } from './revoke-all.js';
import { registerLogout } from './logout.js';
import { registerLink } from './link.js';

export function registerAuth(program: Command, ctx: Context): void {
  const auth = program.command('auth').description('client credentials, tokens and authorization codes');
  registerLogin(auth, ctx);
  registerStatus(auth, ctx);
  registerToken(auth, ctx);
  registerGrant(auth, ctx);
  registerExchange(auth, ctx);
  registerRefresh(auth, ctx);
  registerRevokeAll(auth, ctx);
  registerLogout(auth, ctx);
  registerLink(auth, ctx);
}
