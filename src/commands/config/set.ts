// `config set KEY VALUE`: store a setting in the profile, checked first.
import type { Command } from 'commander';
import { maskUrlPassword } from '../../config/display.js';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { caFileProblem, PROTECTED_OFF, PROTECTED_ON, settingProblem } from '../../config/checks.js';
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
      let v = fromStdin ? (await ctx.readStdinSecret(`config set ${k} -`, k)).trim() : given;
      if (fromStdin && !v) throw new UsageError(`config set ${k} -: nothing was read from standard input`);
      if ((key === 'base-url' || key === 'link-url') && !/^https?:\/\/[^\s]+$/i.test(v))
        throw new UsageError(`${k} must be an http(s) URL, got "${maskUrlPassword(v)}"`);
      // stored as one of the two words; a hand-edited yes/on/1 is still read (config/checks.ts)
      if (key === 'protected' && !/^(true|false)$/.test(v))
        throw new UsageError(`protected must be true or false, got "${v}"`, {
          hint: PROTECTED_ON.test(v.trim())
            ? 'did you mean `true`?'
            : PROTECTED_OFF.test(v.trim())
              ? 'did you mean `false`?'
              : undefined,
        });
      // the CA file is read wherever the profile is used: a relative path would be looked up in
      // whatever directory a later command runs from
      if (key === 'ca-file') v = resolve(ctx.io.cwd, v);
      // the same judge as where the value is used (config/checks.ts): a saved value must not break
      // the profile (a pin or a CA file no request could use was saved, and every command refused)
      const problem = settingProblem(key, v) ?? (key === 'ca-file' ? await caFileProblem(v) : undefined);
      if (problem) throw new UsageError(problem);
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
