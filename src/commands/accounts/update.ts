// `accounts update ID`: change an account's name, number, type, exclusion or favored mark.
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { ACCOUNT_TYPES, isAccountType } from '../../contract/vocabulary.js';
import { ACCOUNT_EXCLUSIONS, updateAccount, type AccountUpdate } from '../../api/accounts.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { ACCOUNT_COLUMNS } from './list.js';
import { V1_ACCOUNT_FIELDS } from '../../contract/item-fields.js';

export interface UpdateOptions {
  id: string;
  update: AccountUpdate;
}

interface Flags {
  name?: string;
  number?: string;
  type?: string;
  exclusion?: string;
  favored?: boolean;
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update')
    .argument('<id>', 'account id')
    .description('change the updatable properties of an account (PUT /api/v1/accounts/{id}, accounts:write)')
    .option('--name <name>', 'display name')
    .option('--number <accountNumber>', 'account number')
    .option('--type <type>', `account type (${ACCOUNT_TYPES.join(', ')})`)
    .option(
      '--exclusion <exclusion>',
      `features the account is excluded from (${ACCOUNT_EXCLUSIONS.join(', ')}); AGGREGATION removes its data except name and number`,
    )
    .option('--favored', 'mark the account as favored')
    .option('--no-favored', 'remove the favored mark')
    .action(async (id: string, o: Flags) => run(ctx, { id, update: updateFromFlags(o) }));
  completeOption(cmd, '--type', () => ACCOUNT_TYPES);
  completeOption(cmd, '--exclusion', () => ACCOUNT_EXCLUSIONS);
  return examples(cmd, [
    'bankctl accounts update 8937fa00166946cbbcbbec569c9d6e90 --name "Bills" --favored',
    'bankctl accounts update $ACCOUNT --exclusion PFM_DATA',
    'bankctl accounts update $ACCOUNT --exclusion AGGREGATION   # drops its data except name and number',
  ]);
}

function updateFromFlags(o: Flags): AccountUpdate {
  const update: AccountUpdate = {};
  if (o.name !== undefined) {
    if (o.name.trim() === '') throw new UsageError('--name must not be empty');
    update.name = o.name;
  }
  if (o.number !== undefined) {
    if (o.number.trim() === '') throw new UsageError('--number must not be empty');
    update.accountNumber = o.number;
  }
  if (o.type !== undefined) {
    const t = o.type.toUpperCase();
    if (!isAccountType(t)) throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}, got "${o.type}"`);
    update.type = t;
  }
  if (o.exclusion !== undefined) {
    const e = o.exclusion.toUpperCase();
    if (!(ACCOUNT_EXCLUSIONS as readonly string[]).includes(e))
      throw new UsageError(`--exclusion must be one of ${ACCOUNT_EXCLUSIONS.join(', ')}, got "${o.exclusion}"`);
    update.accountExclusion = e;
  }
  if (o.favored !== undefined) update.favored = o.favored;
  if (Object.keys(update).length === 0)
    throw new UsageError(
      'nothing to update: give at least one of --name, --number, --type, --exclusion, --favored/--no-favored',
    );
  return update;
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  const account = await updateAccount(await ctx.api(), o.id, o.update);
  // the account as the service returns it: an object in json (as `accounts get`), one row in a table
  await render(ctx, account, { columns: ACCOUNT_COLUMNS, declared: V1_ACCOUNT_FIELDS, vertical: false });
}
