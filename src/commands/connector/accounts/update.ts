// `connector accounts update ID --user U`: rename, close, exclude, retype an account or set its credit.
import type { Command } from 'commander';
import { completeOption } from '../../completion.js';
import type { Context } from '../../../context.js';
import { updateConnectorAccount } from '../../../api/connector.js';
import { EXCLUSIONS } from '../../../contract/connector-wire.js';
import { ACCOUNT_TYPES, isAccountType } from '../../../contract/vocabulary.js';
import { UsageError } from '../../../errors.js';
import { examples, type Run } from '../../util.js';
import { externalUser } from '../shared.js';

export interface UpdateOptions {
  user: string;
  accountId: string;
  update: { name?: string; closed?: boolean; exclusion?: string; type?: string; availableCredit?: string };
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update <externalAccountId>')
    .description(
      'rename, close, exclude or retype an account, or set its available credit (PUT /connector/users/{externalUserId}/accounts/{externalAccountId})',
    )
    .option('--user <externalUserId>', 'the user')
    .option('--name <name>', 'new name')
    .option('--closed', 'mark the account closed')
    .option('--no-closed', 'mark the account open')
    .option('--exclusion <value>', `${EXCLUSIONS.join(', ')}`)
    .option('--type <type>', `new account type: ${ACCOUNT_TYPES.join(', ')}`)
    .option('--available-credit <decimal>', 'new available credit, exact (e.g. 20000 or 1499.50)')
    .action(
      async (
        accountId: string,
        o: {
          user?: string;
          name?: string;
          closed?: boolean;
          exclusion?: string;
          type?: string;
          availableCredit?: string;
        },
      ) => {
        const user = await externalUser(ctx, o.user);
        if (o.exclusion !== undefined && !(EXCLUSIONS as readonly string[]).includes(o.exclusion))
          throw new UsageError(`--exclusion must be one of ${EXCLUSIONS.join(', ')}, got "${o.exclusion}"`);
        const type = o.type?.toUpperCase();
        if (type !== undefined && !isAccountType(type))
          throw new UsageError(`--type must be one of ${ACCOUNT_TYPES.join(', ')}, got "${o.type}"`);
        if (o.availableCredit !== undefined && !/^-?\d{1,30}(\.\d{1,10})?$/.test(o.availableCredit))
          throw new UsageError(
            `--available-credit must be a decimal like 20000 or 1499.50, got "${o.availableCredit}"`,
          );
        if ([o.name, o.closed, o.exclusion, type, o.availableCredit].every((v) => v === undefined))
          throw new UsageError(
            'nothing to update: give --name, --closed/--no-closed, --exclusion, --type or --available-credit',
          );
        if (o.name !== undefined && o.name.trim() === '') throw new UsageError('--name must not be empty');
        await run(ctx, {
          user,
          accountId,
          update: { name: o.name, closed: o.closed, exclusion: o.exclusion, type, availableCredit: o.availableCredit },
        });
      },
    );
  completeOption(cmd, '--type', () => ACCOUNT_TYPES);
  completeOption(cmd, '--exclusion', () => EXCLUSIONS);
  return examples(cmd, [
    'bankctl connector accounts update acc-1 --user alice --name "Household"',
    'bankctl connector accounts update acc-1 --user alice --closed --exclusion PFM_DATA',
    'bankctl connector accounts update card-1 --user alice --type CREDIT_CARD --available-credit 20000',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  await updateConnectorAccount(await ctx.api(), o.user, o.accountId, o.update);
  ctx.notice(`updated account ${o.accountId}`);
}
