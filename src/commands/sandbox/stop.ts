import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../util.js';
import { processAlive, readState, removeState } from '../../config/sandbox-state.js';

export function registerSandboxStop(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('stop')
    .description('stop the sandbox started with `sandbox start` (--detach or another terminal)')
    .action(async () => {
      const state = readState(ctx.configDir);
      if (!state?.pid) {
        ctx.notice('no sandbox is running');
        return;
      }
      try {
        process.kill(state.pid, 'SIGTERM');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') {
          removeState(ctx.configDir);
          ctx.notice('no sandbox is running (removed a stale state file)');
          return;
        }
        throw err;
      }
      const deadline = ctx.clock.now() + 10_000;
      while (ctx.clock.now() < deadline && processAlive(state.pid)) await new Promise((r) => setTimeout(r, 50));
      removeState(ctx.configDir);
      ctx.notice(`sandbox at ${state.baseUrl} stopped`);
    });
  examples(cmd, ['bankctl sandbox stop']);
}
