// `config use PROFILE`: make a profile the current one. A profile that does not exist is refused
// (listing the profiles and the nearest name: a typo must not silently start an empty profile)
// unless --create.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
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

/** Edit distance, for "did you mean". */
export function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

export function nearest(name: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const dd = distance(name.toLowerCase(), n.toLowerCase());
    if (dd < bestD) {
      best = n;
      bestD = dd;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
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
}
