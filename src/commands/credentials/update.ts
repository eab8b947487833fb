import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collect, examples } from '../util.js';
import { addWalkFlags, CREDENTIALS_COLUMNS, keyValues, walkOptions, type WalkFlags } from './shared.js';

export function registerCredentialsUpdate(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('update')
    .description('change the fields of credentials; this starts a refresh (PUT /api/v1/credentials/{id})')
    .argument('<id>', 'credentials id')
    .option('--field <name=value>', 'a new field value (repeatable)', collect)
    .option('--app-uri <url>', 'a new appUri')
    .option('--wait', 'walk the refresh to a final status like `connect` does');
  addWalkFlags(cmd).action(async (id: string, o: WalkFlags & { field?: string[]; appUri?: string; wait?: boolean }) => {
    const fields = keyValues(o.field, '--field');
    if (Object.keys(fields).length === 0 && !o.appUri)
      throw new UsageError('nothing to change: give --field name=value or --app-uri');
    const walk = o.wait ? await walkOptions(ctx, id, o) : undefined;
    const api = await ctx.api();
    const { updateCredentials } = await import('../../api/credentials.js');
    const { render } = await import('../../output/render.js');
    let result = await updateCredentials(api, id, { fields, ...(o.appUri ? { appUri: o.appUri } : {}) });
    if (walk) {
      const { walkCredentials } = await import('../../flows/connect.js');
      result = await walkCredentials(ctx, { ...walk, initial: result });
    }
    await render(ctx, result, { columns: CREDENTIALS_COLUMNS });
  });
  examples(cmd, ['bankctl credentials update 6e68cc6287704273984567b3300c5822 --field password=test-password --wait']);
}
