// What `sandbox start` does for the test bench: --clock and --fixtures checked before anything
// starts, the clock set, and the fixtures loaded once the sandbox listens (problems: exit 2).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseTime } from '../../contract/duration.js';
import type { SandboxState } from '../../config/settings.js';
import { claimState, removeState } from '../../config/sandbox-state.js';
import { fixtureProblems } from './load.js';
import { readInput } from './shared.js';

/** The start flags of the bench: --clock, --fixtures, --bodies. */
export function benchOptions(cmd: Command): Command {
  return cmd
    .option('--clock <time>', "start the sandbox's clock at this time (ISO 8601); see `bankctl sandbox clock`")
    .option('--fixtures <file>', 'load this fixtures file once started (see `bankctl sandbox load`)')
    .option('--bodies', 'keep request and response bodies in the request log (secrets redacted); see `sandbox logs`');
}

export interface BenchStart {
  bodies?: boolean;
  clockMs?: number;
  /** The fixtures file and its text, read before the sandbox starts. */
  fixtures?: { file: string; text: string };
}

export async function benchStartOptions(
  ctx: Context,
  o: { clock?: string; fixtures?: string; bodies?: boolean },
): Promise<BenchStart> {
  let clockMs: number | undefined;
  if (o.clock !== undefined) {
    clockMs = parseTime(o.clock);
    if (clockMs === undefined || clockMs < Date.UTC(2000, 0, 1) || clockMs > Date.UTC(2100, 0, 1))
      throw new UsageError(`--clock "${o.clock}" is not a time from 2000 to 2100`, {
        hint: 'use ISO 8601, e.g. 2026-03-01 or 2026-03-01T09:30:00Z',
      });
  }
  let fixtures: BenchStart['fixtures'];
  if (o.fixtures !== undefined) {
    const text = await readInput(ctx, o.fixtures, '--fixtures');
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${o.fixtures}: not JSON: ${(err as Error).message}`);
    }
    // checked before the sandbox starts: a bad file costs nothing
    const { checkFixtures } = await import('../../sandbox/bench/fixtures.js');
    const { problems } = checkFixtures(doc);
    if (problems.length > 0) throw fixtureProblems(o.fixtures, problems);
    fixtures = { file: o.fixtures, text };
  }
  return { clockMs, fixtures, bodies: o.bodies };
}

type Sandbox = import('../../sandbox/index.js').Sandbox;
type SandboxOptions = import('../../sandbox/context.js').SandboxOptions;

/** The start options for the bench (the clock, the identity hook), and what to do once listening. */
export async function benchHooks(bench: BenchStart): Promise<{
  options: Pick<SandboxOptions, 'clock' | 'onIdentity' | 'bodies'>;
  ready(ctx: Context, sandbox: Sandbox, state: SandboxState): Promise<void>;
}> {
  const { SandboxClock } = await import('../../sandbox/index.js');
  let clock: SandboxOptions['clock'];
  if (bench.clockMs !== undefined) {
    clock = new SandboxClock();
    clock.set(bench.clockMs);
  }
  let onIdentity: SandboxOptions['onIdentity'] = () => undefined;
  return {
    options: { clock, bodies: bench.bodies, onIdentity: (id) => onIdentity!(id) },
    async ready(ctx, sandbox, state) {
      // `sandbox reset` without --keep-clients: the default profile follows the new client
      onIdentity = (id) => void claimState(ctx.configDir, { ...state, ...id });
      if (!bench.fixtures) return;
      try {
        await loadAtStart(ctx, sandbox, bench.fixtures);
      } catch (err) {
        await sandbox.close();
        removeState(ctx.configDir, process.pid);
        throw err;
      }
    },
  };
}

/** Loads the fixtures into the started sandbox, and says what was made on stderr. */
async function loadAtStart(ctx: Context, sandbox: Sandbox, f: { file: string; text: string }): Promise<void> {
  const { checkFixtures, loadPlan } = await import('../../sandbox/bench/fixtures.js');
  const { plan, problems } = checkFixtures(JSON.parse(f.text));
  if (!plan) throw fixtureProblems(f.file, problems);
  const r = await loadPlan(sandbox.context, plan);
  ctx.notice(`sandbox: loaded ${f.file} (${r.created} objects)`);
  for (const [kind, map] of Object.entries(r))
    if (map && typeof map === 'object')
      for (const [name, id] of Object.entries(map)) ctx.notice(`  ${kind}.${name}  ${String(id)}`);
}
