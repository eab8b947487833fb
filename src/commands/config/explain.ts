// `config explain`: each effective setting and where it came from.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SETTING_KEYS } from '../../config/store.js';
import { ENV_FOR } from '../../config/settings.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { mask } from './shared.js';

export type ExplainOptions = Record<string, never>;

export function newCmdExplain(parent: Command, ctx: Context, run: Run<ExplainOptions> = explainRun): Command {
  const cmd = parent
    .command('explain')
    .description('each effective setting and where it came from (flag, env, profile, sandbox, default)')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl config explain', 'BANKCTL_BASE_URL=https://x bankctl config explain -o json']);
}

export async function explainRun(ctx: Context): Promise<void> {
  const s = await ctx.settings();
  const name = ctx.profileName();
  if (!(await ctx.config()).profileNames().includes(name))
    ctx.warn(`profile "${name}" is not saved: commands other than auth login and config refuse it`);
  const rows = SETTING_KEYS.map((k) => {
    const v = s.get(k);
    const source =
      v?.source === 'env' ? `env ${ENV_FOR[k]}` : v?.source === 'profile' ? `profile ${ctx.profileName()}` : v?.source;
    return { key: k, value: v ? mask(k, v.value) : undefined, source: source ?? 'unset' };
  });
  await render(ctx, [
    {
      key: 'profile',
      value: ctx.profileName(),
      source: ctx.globals.profile ? 'flag' : ctx.env.BANKCTL_PROFILE ? 'env BANKCTL_PROFILE' : 'config',
    },
    ...rows,
  ]);
}
