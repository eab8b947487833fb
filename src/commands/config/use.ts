// `config use PROFILE`: make a profile the current one. A profile that does not exist is refused
// (listing the profiles and the nearest name: a typo must not silently start an empty profile)
// unless --create.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { nearest } from '../../config/names.js';
import { examples, type Run } from '../util.js';

export interface UseOptions {
  profile: string;
  create: boolean;
}

export function newCmdUse(parent: Command, ctx: Context, run: Run<UseOptions> = useRun): Command {
  const cmd = parent
    .command('use')
    .argument('<profile>')
    .option('--create', 'create the profile when it does not exist')
    .description('make a profile the current one (an unknown one only with --create)')
    .action(async (name: string, o: { create?: boolean }) => {
      if (!/^[\w.-]{1,64}$/.test(name)) throw new UsageError('profile names use letters, digits, ".", "_" and "-"');
      await run(ctx, { profile: name, create: Boolean(o.create) });
    });
  return examples(cmd, ['bankctl config use prod', 'bankctl config use staging --create']);
}

export async function useRun(ctx: Context, o: UseOptions): Promise<void> {
  const store = await ctx.config();
  const names = store.profileNames();
  if (!names.includes(o.profile) && !o.create) {
    const near = nearest(o.profile, names);
    throw new UsageError(`no profile "${o.profile}"${near ? `; did you mean "${near}"?` : ''}`, {
      hint: `profiles: ${names.length > 0 ? names.join(', ') : '(none)'}; \`bankctl config use ${o.profile} --create\` starts a new one`,
    });
  }
  store.useProfile(o.profile);
  ctx.notice(`now using profile "${o.profile}"${names.includes(o.profile) ? '' : ' (created)'}`);
  // the environment names the profile before "current" does: this shell goes on using that one
  const env = ctx.env.BANKCTL_PROFILE;
  if (env && env !== o.profile)
    ctx.warn(
      `BANKCTL_PROFILE is set to "${env}" in this environment and wins over the current profile: commands here still use "${env}" until it is unset (\`unset BANKCTL_PROFILE\`)`,
    );
}
