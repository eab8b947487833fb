import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { BankctlError } from '../../errors.js';
import { examples } from '../util.js';
import { dataFileSize } from './data-file.js';
import {
  isRecordedSandbox,
  pidReused,
  processAlive,
  readState,
  removeState,
  stateFile,
} from '../../config/sandbox-state.js';

/** How long a sandbox takes to stop; one with a --data file writes its state first (a GB takes tens of seconds). */
const STOP_WAIT_MS = 10_000;
const SAVING_WAIT_MS = 5 * 60_000;
/** A stop that takes longer than this says why it waits. */
const NOTE_AFTER_MS = 2000;

export function registerSandboxStop(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('stop')
    .description('stop the sandbox started with `sandbox start` (--detach or another terminal)')
    .action(async () => {
      const state = readState(ctx.configDir, { strict: true });
      if (!state?.pid) {
        ctx.notice('no sandbox is running');
        return;
      }
      const pid = state.pid;
      if (!processAlive(pid)) {
        // a sandbox started since may have claimed the file: only the dead one's state goes
        if (removeState(ctx.configDir, pid)) ctx.notice('no sandbox is running (removed a stale state file)');
        else
          ctx.notice(
            `the sandbox recorded in ${stateFile(ctx.configDir)} (pid ${pid}) had ended; one started since has claimed the file and was left running`,
          );
        return;
      }
      // The pid may have been given to another program since: signal only a bankctl sandbox.
      if (!isRecordedSandbox(state)) {
        removeState(ctx.configDir, pid);
        const now = pidReused(state)
          ? 'was started after the sandbox that had that pid (the pid was given away)'
          : 'is no longer a bankctl sandbox';
        ctx.notice(
          `no sandbox is running: process ${pid}, recorded in ${stateFile(ctx.configDir)}, ${now} and was left alone (removed the stale state file)`,
        );
        return;
      }
      try {
        process.kill(pid, 'SIGTERM');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
      // a --data sandbox writes its last snapshot before it ends: a large state takes a while
      const saving = state.dataFile;
      const waitMs = saving ? SAVING_WAIT_MS : STOP_WAIT_MS;
      const note = saving
        ? setTimeout(() => {
            const size = dataFileSize(saving);
            ctx.notice(
              `sandbox: still stopping (pid ${pid}), writing its state to ${saving}${size ? ` (now ${size})` : ''}`,
            );
          }, NOTE_AFTER_MS)
        : undefined;
      const deadline = ctx.clock.now() + waitMs;
      while (ctx.clock.now() < deadline && processAlive(pid)) await new Promise((r) => setTimeout(r, 50));
      clearTimeout(note);
      if (processAlive(pid))
        throw new BankctlError(`the sandbox (pid ${pid}) did not stop within ${waitMs / 1000} s`, {
          hint: `\`kill ${pid}\`, or \`kill -9 ${pid}\` if it hangs${saving ? ' (its state is then as last saved)' : ''}`,
        });
      removeState(ctx.configDir, pid);
      ctx.notice(`sandbox at ${state.baseUrl} stopped`);
    });
  examples(cmd, ['bankctl sandbox stop']);
}
