import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { isSettingKey } from '../../context.js';
import { SECRET_KEYS, SETTING_KEYS, type SettingKey } from '../../config/store.js';
import { ENV_FOR } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';

function key(k: string): SettingKey {
  if (!isSettingKey(k)) throw new UsageError(`unknown setting "${k}"`, { hint: `keys: ${SETTING_KEYS.join(', ')}` });
  return k;
}

function mask(k: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  return SECRET_KEYS.has(k) ? `${v.slice(0, 4)}…(${v.length} chars)` : v;
}

export function registerConfig(program: Command, ctx: Context): void {
  const config = program.command('config').description('profiles and settings (stored 0600 under BANKCTL_CONFIG_DIR)');

  examples(
    config
      .command('list')
      .description('the settings stored in the profile (secrets masked)')
      .option('--all-profiles', 'every profile')
      .action(async (o: { allProfiles?: boolean }) => {
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
      }),
    ['bankctl config list', 'bankctl config list --all-profiles -o json'],
  );

  examples(
    config
      .command('get')
      .argument('<key>', `one of ${SETTING_KEYS.join(', ')}`)
      .description('print the stored value of a setting (secrets too: this is how scripts read them)')
      .action(async (k: string) => {
        const store = await ctx.config();
        const v = store.profile(ctx.profileName())[key(k)];
        if (v === undefined) throw new UsageError(`"${k}" is not set in profile "${ctx.profileName()}"`);
        ctx.io.stdout.write(`${v}\n`);
      }),
    ['bankctl config get base-url'],
  );

  examples(
    config
      .command('set')
      .argument('<key>', `one of ${SETTING_KEYS.join(', ')}`)
      .argument('<value>')
      .description('store a setting in the profile')
      .action(async (k: string, v: string) => {
        const sk = key(k);
        if ((sk === 'base-url' || sk === 'link-url') && !/^https?:\/\/[^\s]+$/i.test(v))
          throw new UsageError(`${k} must be an http(s) URL, got "${v}"`);
        if (sk === 'output' && !['table', 'json', 'ndjson', 'csv'].includes(v))
          throw new UsageError('output must be one of table, json, ndjson, csv');
        if ((sk === 'timeout' || sk === 'retries') && !/^\d+(\.\d+)?$/.test(v))
          throw new UsageError(`${k} must be a non-negative number`);
        if (SECRET_KEYS.has(sk))
          ctx.warn(`the value of ${k} given on the command line is visible in the process list and shell history`);
        const store = await ctx.config();
        store.set(ctx.profileName(), sk, v);
        ctx.notice(`${k} set in profile "${ctx.profileName()}"`);
      }),
    ['bankctl config set base-url https://api.example.com --profile prod', 'bankctl config set output json'],
  );

  examples(
    config
      .command('unset')
      .argument('<key>')
      .description('remove a setting from the profile')
      .action(async (k: string) => {
        const store = await ctx.config();
        store.unset(ctx.profileName(), key(k));
        ctx.notice(`${k} unset in profile "${ctx.profileName()}"`);
      }),
    ['bankctl config unset user'],
  );

  examples(
    config
      .command('use')
      .argument('<profile>')
      .description('make a profile the current one')
      .action(async (name: string) => {
        if (!/^[\w.-]{1,64}$/.test(name)) throw new UsageError('profile names use letters, digits, ".", "_" and "-"');
        const store = await ctx.config();
        store.useProfile(name);
        ctx.notice(`now using profile "${name}"`);
      }),
    ['bankctl config use prod'],
  );

  examples(
    config
      .command('explain')
      .description('each effective setting and where it came from (flag, env, profile, sandbox, default)')
      .action(async () => {
        const s = await ctx.settings();
        const rows = SETTING_KEYS.map((k) => {
          const v = s.get(k);
          const source =
            v?.source === 'env'
              ? `env ${ENV_FOR[k]}`
              : v?.source === 'profile'
                ? `profile ${ctx.profileName()}`
                : v?.source;
          return { key: k, value: v ? mask(k, v.value) : undefined, source: source ?? 'unset' };
        });
        await render(ctx, [
          {
            key: 'profile',
            value: ctx.profileName(),
            source: ctx.globals.profile ? 'flag' : ctx.env.BANKCTL_PROFILE ? 'env BANKCTL_PROFILE' : 'config',
          },
          ...rows,
        ]);
      }),
    ['bankctl config explain', 'BANKCTL_BASE_URL=https://x bankctl config explain -o json'],
  );
}
