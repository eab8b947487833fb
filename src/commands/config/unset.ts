// `config unset KEY`: remove a setting from the profile.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { SettingKey } from '../../config/store.js';
import { examples, type Run } from '../util.js';
import { confirmSettingChange, settingKey } from './shared.js';

export interface UnsetOptions {
  key: SettingKey;
}

export function newCmdUnset(parent: Command, ctx: Context, run: Run<UnsetOptions> = unsetRun): Command {
  const cmd = parent
    .command('unset')
    .argument('<key>')
    .description('remove a setting from the profile')
    .action(async (k: string) => {
      const key = settingKey(k);
      await confirmSettingChange(ctx, 'unset', key);
      await run(ctx, { key });
    });
  return examples(cmd, [
    'bankctl config unset user',
    'bankctl config unset base-url --profile prod --yes   # prod is protected: needs --yes in a script',
  ]);
}

export async function unsetRun(ctx: Context, o: UnsetOptions): Promise<void> {
  const store = await ctx.config();
  // nothing to unset in a profile never saved (and unsetting must not save it)
  ctx.requireSavedProfile(store);
  // a key that was not there is no failure (the profile is as asked), but not "unset" either: a
  // typo of the profile or a setting from the environment would pass for removed
  const was = store.profile(ctx.profileName())[o.key] !== undefined;
  store.unset(ctx.profileName(), o.key);
  ctx.notice(
    was
      ? `${o.key} unset in profile "${ctx.profileName()}"`
      : `${o.key} was not set in profile "${ctx.profileName()}" (nothing to unset; \`bankctl config explain\` shows where a value in effect comes from)`,
  );
}
