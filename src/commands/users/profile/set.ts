// `users profile set`: change the user's profile (PUT /api/v1/user/profile, user:write): locale,
// time zone, period mode and day, notification settings. Currency and market are read-only.
import { renderOne } from '../../accounts/v2-cells.js';
import type { Command } from 'commander';
import { completeOption } from '../../completion.js';
import type { Context } from '../../../context.js';
import { getProfile, PERIOD_MODES, setProfile } from '../../../api/user.js';
import { NOTIFICATION_SETTINGS } from '../../../contract/item-fields.js';
import { UsageError } from '../../../errors.js';
import { collect, examples, parseIntArg, type Run } from '../../util.js';
import { PROFILE_VIEW } from './get.js';

export interface ProfileSetOptions {
  body: Record<string, unknown>;
}

interface Flags {
  locale?: string;
  timeZone?: string;
  periodMode?: string;
  periodAdjustedDay?: string;
  notify?: string[];
}

export function profileFromFlags(f: Flags): ProfileSetOptions {
  const body: Record<string, unknown> = {};
  if (f.locale !== undefined) {
    if (!/^[a-z]{2}_[A-Z]{2}$/.test(f.locale)) throw new UsageError(`--locale must look like sv_SE, got "${f.locale}"`);
    body.locale = f.locale;
  }
  if (f.timeZone !== undefined) body.timeZone = f.timeZone;
  if (f.periodMode !== undefined) {
    const m = f.periodMode.toUpperCase();
    if (!(PERIOD_MODES as readonly string[]).includes(m))
      throw new UsageError(`--period-mode must be one of ${PERIOD_MODES.join(', ')}, got "${f.periodMode}"`);
    body.periodMode = m;
  }
  if (f.periodAdjustedDay !== undefined)
    body.periodAdjustedDay = parseIntArg(f.periodAdjustedDay, '--period-adjusted-day', { min: 1, max: 31 });
  if (f.notify && f.notify.length > 0) {
    const settings: Record<string, boolean> = {};
    for (const n of f.notify) {
      const m = /^([A-Za-z]+)=(on|off|true|false)$/.exec(n);
      if (!m) throw new UsageError(`--notify must be NAME=on|off, got "${n}"`);
      if (!NOTIFICATION_SETTINGS.includes(m[1]!))
        throw new UsageError(`--notify: unknown notification "${m[1]}"`, {
          hint: `one of ${NOTIFICATION_SETTINGS.join(', ')}`,
        });
      settings[m[1]!] = m[2] === 'on' || m[2] === 'true';
    }
    body.notificationSettings = settings;
  }
  if (Object.keys(body).length === 0)
    throw new UsageError(
      'nothing to set: give --locale, --time-zone, --period-mode, --period-adjusted-day or --notify',
    );
  return { body };
}

export function newCmdProfileSet(parent: Command, ctx: Context, run: Run<ProfileSetOptions> = profileSetRun): Command {
  const cmd = parent
    .command('set')
    .description("change the user's profile (PUT /api/v1/user/profile, user token, user:write)")
    .option('--locale <locale>', 'e.g. sv_SE')
    .option('--time-zone <zone>', 'an IANA time zone, e.g. Europe/Stockholm')
    .option('--period-mode <mode>', `${PERIOD_MODES.join(' or ')}`)
    .option('--period-adjusted-day <day>', 'the day a MONTHLY_ADJUSTED period starts, 1 to 31')
    .option('--notify <name=on|off>', 'a notification setting, repeatable (e.g. budget=on)', collect)
    .action(async (f: Flags) => run(ctx, profileFromFlags(f)));
  completeOption(cmd, '--period-mode', () => PERIOD_MODES);
  return examples(cmd, [
    'bankctl users profile set --user $USER_ID --period-mode MONTHLY_ADJUSTED --period-adjusted-day 25',
    'bankctl users profile set --notify budget=on --notify fraud=on -o json',
  ]);
}

/** What a PUT of the profile sends, by the reference's request example (market and currency are read-only). */
const MODIFIABLE = ['locale', 'notificationSettings', 'periodAdjustedDay', 'periodMode', 'timeZone'];

/**
 * The reference's PUT takes the whole modifiable profile (locale, the period, the time zone and all
 * fourteen notification settings are required): the current profile is read, the changes laid over
 * it, and the whole sent, so that one --notify leaves the other settings as they were.
 */
export async function profileSetRun(ctx: Context, o: ProfileSetOptions): Promise<void> {
  const api = await ctx.api();
  const current = (await getProfile(api)) ?? {};
  const body: Record<string, unknown> = {};
  for (const k of MODIFIABLE) if (current[k] !== undefined && current[k] !== null) body[k] = current[k];
  Object.assign(body, o.body);
  const settings = current.notificationSettings;
  if (o.body.notificationSettings && settings && typeof settings === 'object')
    body.notificationSettings = { ...settings, ...(o.body.notificationSettings as object) };
  await renderOne(ctx, await setProfile(api, body), PROFILE_VIEW);
}
