// `sandbox status`: whether the sandbox of this config directory runs, and where. Read only: a stale
// state file is reported, not removed (`sandbox stop` removes it). No secrets: `sandbox start`
// printed them, and the profile uses them by itself.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { isRecordedSandbox, pidReused, processAlive, readState, stateFile } from '../../config/sandbox-state.js';

export function registerSandboxStatus(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('status')
    .description(
      'whether the sandbox of this config directory runs: its URLs, pid and client id (exit 2 when none runs)',
    )
    .action(async () => {
      const state = readState(ctx.configDir, { strict: true });
      if (!state?.pid) throw new UsageError(`no sandbox is running for ${ctx.configDir}`, { hint: START });
      if (!isRecordedSandbox(state)) {
        const why = !processAlive(state.pid)
          ? 'has ended'
          : pidReused(state)
            ? 'was given to another program since'
            : 'is no longer a bankctl sandbox';
        throw new UsageError(
          `no sandbox is running for ${ctx.configDir}: the one recorded in ${stateFile(ctx.configDir)} (pid ${state.pid}) ${why}`,
          { hint: `${START}; \`bankctl sandbox stop\` removes the stale file` },
        );
      }
      await render(ctx, {
        running: true,
        baseUrl: state.baseUrl,
        linkUrl: state.linkUrl,
        pid: state.pid,
        clientId: state.clientId,
        ...(state.caFile ? { caFile: state.caFile, pin: state.pin } : {}),
        ...(state.dataFile ? { dataFile: state.dataFile } : {}),
      });
    });
  examples(cmd, [
    'bankctl sandbox status',
    'bankctl sandbox status >/dev/null 2>&1 || bankctl sandbox start --detach --port 0',
    'BASE=$(bankctl sandbox status --jq .baseUrl)',
  ]);
}

const START = 'start one with `bankctl sandbox start --detach`';
