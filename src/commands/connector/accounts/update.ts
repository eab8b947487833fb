// `connector accounts update ID --user U`: rename, close or exclude an account.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { updateConnectorAccount } from '../../../api/connector.js';
import { EXCLUSIONS } from '../../../contract/connector-wire.js';
import { UsageError } from '../../../errors.js';
import { examples, type Run } from '../../util.js';
import { externalUser } from '../shared.js';

export interface UpdateOptions {
  user: string;
  accountId: string;
  update: { name?: string; closed?: boolean; exclusion?: string };
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update <externalAccountId>')
    .description(
      'rename, close or exclude an account (PUT /connector/users/{externalUserId}/accounts/{externalAccountId})',
    )
    .option('--user <externalUserId>', 'the user')
    .option('--name <name>', 'new name')
    .option('--closed', 'mark the account closed')
    .option('--no-closed', 'mark the account open')
    .option('--exclusion <value>', `${EXCLUSIONS.join(', ')}`)
    .action(async (accountId: string, o: { user?: string; name?: string; closed?: boolean; exclusion?: string }) => {
      const user = await externalUser(ctx, o.user);
      if (o.exclusion !== undefined && !(EXCLUSIONS as readonly string[]).includes(o.exclusion))
        throw new UsageError(`--exclusion must be one of ${EXCLUSIONS.join(', ')}`);
      if (o.name === undefined && o.closed === undefined && o.exclusion === undefined)
        throw new UsageError('nothing to update: give --name, --closed/--no-closed or --exclusion');
      if (o.name !== undefined && o.name.trim() === '') throw new UsageError('--name must not be empty');
      await run(ctx, { user, accountId, update: { name: o.name, closed: o.closed, exclusion: o.exclusion } });
    });
  return examples(cmd, [
    'bankctl connector accounts update acc-1 --user alice --name "Household"',
    'bankctl connector accounts update acc-1 --user alice --closed --exclusion PFM_DATA',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  await updateConnectorAccount(await ctx.api(), o.user, o.accountId, o.update);
  ctx.notice(`updated account ${o.accountId}`);
}
