// `config set KEY VALUE`: store a setting in the profile, checked first.
import type { Command } from 'commander';
import { maskUrlPassword } from '../../config/display.js';
import { settingProblem, type Context } from '../../context.js';
import { SECRET_KEYS, SETTING_KEYS, type SettingKey } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';
import { confirmSettingChange, settingKey } from './shared.js';

export interface SetOptions {
  key: SettingKey;
  value: string;
}

export function newCmdSet(parent: Command, ctx: Context, run: Run<SetOptions> = setRun): Command {
  const cmd = parent
    .command('set')
    .argument('<key>', `one of ${SETTING_KEYS.join(', ')}`)
    .argument('<value>', 'the value; - reads it from standard input (first line; asked, masked, on a terminal)')
    .description('store a setting in the profile')
    .action(async (k: string, given: string) => {
      const key = settingKey(k);
      // `-` is standard input, as for other CLIs' secrets: stored as is, a client secret "-" was
      // kept and refused later with 401, and a secret had no way into the profile but argv
      const fromStdin = given === '-';
      const v = fromStdin ? (await ctx.readStdinSecret(`config set ${k} -`, k)).trim() : given;
      if (fromStdin && !v) throw new UsageError(`config set ${k} -: nothing was read from standard input`);
      if ((key === 'base-url' || key === 'link-url') && !/^https?:\/\/[^\s]+$/i.test(v))
        throw new UsageError(`${k} must be an http(s) URL, got "${maskUrlPassword(v)}"`);
      if (key === 'output' && !['table', 'json', 'ndjson', 'csv'].includes(v))
        throw new UsageError(`output must be one of table, json, ndjson, csv, got "${v}"`);
      // the same checks as where the value is used: a saved value must not break the profile
      if (key === 'timeout' || key === 'retries' || key === 'max-response-size') {
        const problem = settingProblem(key, v);
        if (problem) throw new UsageError(problem);
      }
      if (key === 'protected' && !/^(true|false)$/.test(v)) throw new UsageError('protected must be true or false');
      if (SECRET_KEYS.has(key) && !fromStdin)
        ctx.warn(
          `the value of ${k} given on the command line is visible in the process list and shell history; \`bankctl config set ${k} -\` reads it from standard input`,
        );
      await confirmSettingChange(ctx, 'set', key, v);
      await run(ctx, { key, value: v });
    });
  return examples(cmd, [
    'bankctl config set base-url https://api.example.com --profile prod',
    'bankctl config set output json',
    'printf %s "$CONNECTOR_TOKEN" | bankctl config set connector-token - --profile prod   # a secret kept out of argv',
    'bankctl config set protected true --profile prod   # data-changing commands ask for "prod" to be typed',
    'bankctl config set protected false --profile prod --yes   # changing a protected profile needs --yes in a script',
  ]);
}

export async function setRun(ctx: Context, o: SetOptions): Promise<void> {
  const store = await ctx.config();
  store.set(ctx.profileName(), o.key, o.value);
  ctx.notice(`${o.key} set in profile "${ctx.profileName()}"`);
}
