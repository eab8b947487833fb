// `config explain`: each effective setting and where it came from, a value no command can use marked.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SETTING_KEYS } from '../../config/store.js';
import { ENV_FOR } from '../../config/settings.js';
import { effectiveProblem, fromWhere } from '../../config/checks.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { mask } from './shared.js';

export type ExplainOptions = Record<string, never>;

export function newCmdExplain(parent: Command, ctx: Context, run: Run<ExplainOptions> = explainRun): Command {
  const cmd = parent
    .command('explain')
    .description(
      'each effective setting and where it came from (flag, env, profile, sandbox, default); a value that cannot be used is marked in a problem column and warned about',
    )
    .action(async () => run(ctx, {}));
  return examples(cmd, [
    'bankctl config explain',
    'BANKCTL_BASE_URL=https://x bankctl config explain -o json',
    "bankctl config explain -o json | jq '.[] | select(.problem)'   # the settings no command can use",
  ]);
}

export async function explainRun(ctx: Context): Promise<void> {
  const s = await ctx.settings();
  const name = ctx.profileName();
  if (!(await ctx.config()).profileNames().includes(name))
    ctx.warn(`profile "${name}" is not saved: commands other than auth login and config refuse it`);
  const rows = await Promise.all(
    SETTING_KEYS.map(async (k) => {
      const v = s.get(k);
      const source =
        v?.source === 'env' ? `env ${ENV_FOR[k]}` : v?.source === 'profile' ? `profile ${name}` : v?.source;
      // judged as the commands that use it judge it (config/checks.ts): a value doctor fails on,
      // or every request refuses, was shown here as if it were fine
      const problem = await effectiveProblem(k, v);
      return {
        key: k,
        value: v ? mask(k, v.value) : undefined,
        source: source ?? 'unset',
        ...(problem && { problem }),
      };
    }),
  );
  // a warning each on stderr too: -o json piped to a file leaves the marks unseen
  for (const r of rows) {
    const v = s.get(r.key)!;
    if (r.problem) ctx.warn(`${r.problem} (from ${fromWhere(r.key, v, name)})`);
  }
  const columns = [
    { header: 'key', path: 'key' },
    { header: 'value', path: 'value' },
    { header: 'source', path: 'source' },
  ];
  // the column only when there is something in it
  if (rows.some((r) => 'problem' in r)) columns.push({ header: 'problem', path: 'problem' });
  await render(
    ctx,
    [
      {
        key: 'profile',
        value: name,
        source: ctx.globals.profile ? 'flag' : ctx.env.BANKCTL_PROFILE ? 'env BANKCTL_PROFILE' : 'config',
      },
      ...rows,
    ],
    { columns },
  );
}
