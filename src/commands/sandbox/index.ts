import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerSandboxStart } from './start.js';
import { registerSandboxStop } from './stop.js';
import { registerSandboxTrigger } from './trigger.js';
import { registerSandboxRotate } from './rotate.js';

export function registerSandbox(program: Command, ctx: Context): void {
  const sandbox = program.command('sandbox').description('the embedded local emulator of the service');
  registerSandboxStart(sandbox, ctx);
  registerSandboxStop(sandbox, ctx);
  registerSandboxTrigger(sandbox, ctx);
  registerSandboxRotate(sandbox, ctx);
}
