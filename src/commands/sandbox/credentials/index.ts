import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { newCmdSetStatus } from './set-status.js';

// `sandbox credentials`: state controls of connected credentials.
export function registerSandboxCredentials(parent: Command, ctx: Context): void {
  const noun = parent.command('credentials').description('state controls of credentials (sandbox only)');
  newCmdSetStatus(noun, ctx);
}
