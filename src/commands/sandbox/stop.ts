import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { BankctlError } from '../../errors.js';
import { examples } from '../util.js';
import { isSandboxProcess, processAlive, readState, removeState, stateFile } from '../../config/sandbox-state.js';

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
      const pid = state.pid;
      if (!processAlive(pid)) {
        removeState(ctx.configDir);
        ctx.notice('no sandbox is running (removed a stale state file)');
        return;
      }
      // The pid may have been given to another program since: signal only a bankctl sandbox.
      if (!isSandboxProcess(pid)) {
        removeState(ctx.configDir, pid);
        ctx.notice(
          `no sandbox is running: process ${pid}, recorded in ${stateFile(ctx.configDir)}, is no longer a bankctl sandbox and was left alone (removed the stale state file)`,
        );
        return;
      }
      try {
        process.kill(pid, 'SIGTERM');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
      const deadline = ctx.clock.now() + 10_000;
      while (ctx.clock.now() < deadline && processAlive(pid)) await new Promise((r) => setTimeout(r, 50));
      if (processAlive(pid))
        throw new BankctlError(`the sandbox (pid ${pid}) did not stop within 10 s`, {
          hint: `\`kill ${pid}\`, or \`kill -9 ${pid}\` if it hangs`,
        });
      removeState(ctx.configDir, pid);
      ctx.notice(`sandbox at ${state.baseUrl} stopped`);
    });
  examples(cmd, ['bankctl sandbox stop']);
}
