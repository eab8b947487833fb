// `config list`: the settings stored in a profile (or every profile), secrets masked.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { mask } from './shared.js';

export interface ListOptions {
  allProfiles: boolean;
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description('the settings stored in the profile (secrets masked)')
    .option('--all-profiles', 'every profile')
    .action(async (o: { allProfiles?: boolean }) => run(ctx, { allProfiles: Boolean(o.allProfiles) }));
  return examples(cmd, ['bankctl config list', 'bankctl config list --all-profiles -o json']);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  const store = await ctx.config();
  const names = o.allProfiles ? store.profileNames() : [ctx.profileName()];
  const current = store.currentProfile();
  const rows = names.flatMap((p) =>
    Object.entries(store.profile(p)).map(([k, v]) => ({
      profile: p,
      current: p === current,
      key: k,
      value: mask(k, v),
    })),
  );
  await render(ctx, rows, {
    columns: [
      { header: 'profile', path: 'profile' },
      { header: 'key', path: 'key' },
      { header: 'value', path: 'value' },
    ],
  });
}
