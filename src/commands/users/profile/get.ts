// `users profile get`: the user's profile (GET /api/v1/user/profile, user:read).
import { renderOne } from '../../accounts/v2-cells.js';
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { getProfile } from '../../../api/user.js';
import type { Column } from '../../../output/render.js';
import { examples, type Run } from '../../util.js';
import { USER_PROFILE_FIELDS } from '../../../contract/item-fields.js';

const PROFILE_COLUMNS: Column[] = [
  { header: 'market', path: 'market' },
  { header: 'currency', path: 'currency' },
  { header: 'locale', path: 'locale' },
  { header: 'timeZone', path: 'timeZone' },
  { header: 'periodMode', path: 'periodMode' },
  { header: 'periodAdjustedDay', path: 'periodAdjustedDay' },
  {
    header: 'notifications',
    path: 'notificationSettings',
    format: (v) =>
      v && typeof v === 'object'
        ? Object.entries(v as Record<string, unknown>)
            .filter(([, on]) => on === true)
            .map(([k]) => k)
            .join(' ')
        : '',
  },
];

/** The profile's columns and the fields --fields takes on any answer. */
export const PROFILE_VIEW = { columns: PROFILE_COLUMNS, declared: USER_PROFILE_FIELDS };

export type ProfileGetOptions = Record<string, never>;

export function newCmdProfileGet(parent: Command, ctx: Context, run: Run<ProfileGetOptions> = profileGetRun): Command {
  const cmd = parent
    .command('get')
    .description("show the user's profile (GET /api/v1/user/profile, user token, user:read)")
    .action(async () => run(ctx, {}));
  return examples(cmd, ['bankctl users profile get --user $USER_ID', 'bankctl users profile get -o json']);
}

export async function profileGetRun(ctx: Context): Promise<void> {
  await renderOne(ctx, await getProfile(await ctx.api()), PROFILE_VIEW);
}
