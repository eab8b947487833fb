// `config get KEY`: the stored value, bare (secrets too: this is how scripts read them).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { SETTING_KEYS, type SettingKey } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { examples, printsBare, type Run } from '../util.js';
import { settingKey } from './shared.js';

export interface GetOptions {
  key: SettingKey;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .argument('<key>', `one of ${SETTING_KEYS.join(', ')}`)
    .description('print the stored value of a setting (secrets too: this is how scripts read them)')
    .action(async (k: string) => run(ctx, { key: settingKey(k) }));
  printsBare(cmd, 'the bare stored value');
  return examples(cmd, ['bankctl config get base-url']);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  const store = await ctx.config();
  const v = store.profile(ctx.profileName())[o.key];
  if (v === undefined)
    throw new UsageError(`"${o.key}" is not set in profile "${ctx.profileName()}"`, {
      // the value in effect may come from a flag, the environment, the local sandbox or a default
      hint: '`bankctl config explain` shows the value in effect and where it comes from',
    });
  ctx.io.stdout.write(`${v}\n`);
}
