// `auth`: its verbs (the description is in src/program.ts).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { newCmdLogin } from './login.js';
import { newCmdStatus } from './status.js';
import { newCmdToken } from './token.js';
import { newCmdGrant } from './grant.js';
import { newCmdExchange } from './exchange.js';
import { newCmdRefresh } from './refresh.js';
import { newCmdRevokeAll } from './revoke-all.js';
import { newCmdLogout } from './logout.js';
import { newCmdLink } from './link.js';
import { newCmdLinkSession } from './link-session.js';

export function registerAuth(noun: Command, ctx: Context): void {
  newCmdLogin(noun, ctx);
  newCmdStatus(noun, ctx);
  newCmdToken(noun, ctx);
  newCmdGrant(noun, ctx);
  newCmdExchange(noun, ctx);
  newCmdRefresh(noun, ctx);
  newCmdRevokeAll(noun, ctx);
  newCmdLogout(noun, ctx);
  newCmdLink(noun, ctx);
  newCmdLinkSession(noun, ctx);
}
