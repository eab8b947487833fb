// `config profiles`: the profile names, the current one marked (json: name, current, protected).
import type { Command } from 'commander';
import { protects } from '../../config/checks.js';
import type { Context } from '../../context.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';

export function newCmdProfiles(parent: Command, ctx: Context, run: Run<Record<string, never>> = profilesRun): Command {
  const cmd = parent
    .command('profiles')
    .description('list the profile names (the current one marked)')
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl config profiles', 'bankctl config profiles -o json']);
}

export async function profilesRun(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const current = ctx.profileName();
  const rows = store.profileNames().map((name) => ({
    name,
    current: name === current,
    protected: protects(store.profile(name).protected),
  }));
  // the "* " marker is for a person's table; csv gets the plain name and a current column
  const table = (await ctx.outputFormat()) === 'table';
  await render(ctx, rows, {
    columns: table
      ? [
          {
            header: 'name',
            path: 'name',
            format: (v, it) => `${(it as { current: boolean }).current ? '* ' : '  '}${String(v)}`,
          },
          { header: 'protected', path: 'protected', format: (v) => (v ? 'protected' : '') },
        ]
      : [
          { header: 'name', path: 'name' },
          { header: 'current', path: 'current' },
          { header: 'protected', path: 'protected' },
        ],
  });
}
