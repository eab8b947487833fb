import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerSandboxStart } from './start.js';
import { registerSandboxStop } from './stop.js';
import { registerSandboxTrigger } from './trigger.js';
import { registerSandboxRotate } from './rotate.js';

// `sandbox`: its verbs (the description is in src/program.ts).
export function registerSandbox(sandbox: Command, ctx: Context): void {
  registerSandboxStart(sandbox, ctx);
  registerSandboxStop(sandbox, ctx);
  registerSandboxTrigger(sandbox, ctx);
  registerSandboxRotate(sandbox, ctx);
}
