import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { newCmdExpire } from './expire.js';

// `sandbox consents`: state controls of provider consents.
export function registerSandboxConsents(parent: Command, ctx: Context): void {
  const noun = parent.command('consents').description('state controls of provider consents (sandbox only)');
  newCmdExpire(noun, ctx);
}
