import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerSandboxStart } from './start.js';
import { registerSandboxStop } from './stop.js';
import { registerSandboxStatus } from './status.js';
import { registerSandboxTrigger } from './trigger.js';
import { registerSandboxRotate } from './rotate.js';
import { registerSandboxCredentials } from './credentials/index.js';
import { registerSandboxConsents } from './consents/index.js';
import { registerSandboxTransactions } from './transactions/index.js';
import { newCmdClock } from './clock/index.js';
import { newCmdReset } from './reset.js';
import { newCmdLoad } from './load.js';
import { newCmdLogs } from './logs.js';

// `sandbox`: its verbs (the description is in src/program.ts).
export function registerSandbox(sandbox: Command, ctx: Context): void {
  registerSandboxStart(sandbox, ctx);
  registerSandboxStop(sandbox, ctx);
  registerSandboxStatus(sandbox, ctx);
  registerSandboxTrigger(sandbox, ctx);
  registerSandboxRotate(sandbox, ctx);
  registerSandboxCredentials(sandbox, ctx);
  registerSandboxConsents(sandbox, ctx);
  registerSandboxTransactions(sandbox, ctx);
  newCmdClock(sandbox, ctx);
  newCmdReset(sandbox, ctx);
  newCmdLoad(sandbox, ctx);
  newCmdLogs(sandbox, ctx);
}
