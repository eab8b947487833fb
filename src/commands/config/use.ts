// `config use PROFILE`: make a profile the current one.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';

export interface UseOptions {
  profile: string;
}

export function newCmdUse(parent: Command, ctx: Context, run: Run<UseOptions> = useRun): Command {
  const cmd = parent
    .command('use')
    .argument('<profile>')
    .description('make a profile the current one')
    .action(async (name: string) => {
      if (!/^[\w.-]{1,64}$/.test(name)) throw new UsageError('profile names use letters, digits, ".", "_" and "-"');
      await run(ctx, { profile: name });
    });
  return examples(cmd, ['bankctl config use prod']);
}

export async function useRun(ctx: Context, o: UseOptions): Promise<void> {
  const store = await ctx.config();
  store.useProfile(o.profile);
  ctx.notice(`now using profile "${o.profile}"`);
}
