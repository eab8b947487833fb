// `connector transactions delete --user U`: delete pushed transactions (from flags or a container file).
import type { Command } from 'commander';
import { completeOption } from '../../completion.js';
import type { Context } from '../../../context.js';
import { deleteTransactions } from '../../../api/connector.js';
import { INGEST_TYPES, ExactNumber, WireError, validateContainer } from '../../../contract/connector-wire.js';
import { UsageError } from '../../../errors.js';
import { collect, examples, type Run } from '../../util.js';
import { externalUser, jsonInput } from '../shared.js';
import { checkContainer } from './shared.js';
import { confirmDestructive, where } from '../../../prompts/confirm.js';

export interface DeleteOptions {
  user: string;
  /** A checked DeleteTransactionAccountsContainer. */
  body: unknown;
}

interface Flags {
  user?: string;
  file?: string;
  data?: string;
  account?: string;
  balance?: string;
  transaction?: string[];
  type: string;
}

function decimalFlag(v: string, flag: string): ExactNumber {
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?$/.test(v.trim()))
    throw new UsageError(`${flag} must be a decimal number, got "${v}"`);
  return new ExactNumber(v.trim());
}

export function newCmdDelete(parent: Command, ctx: Context, run: Run<DeleteOptions> = deleteRun): Command {
  const cmd = parent
    .command('delete')
    .description(
      'delete transactions (POST /connector/users/{externalUserId}/transactions/delete); a deleted one is refused later (410)',
    )
    .option('--user <externalUserId>', 'the user')
    .option('--file <file>', 'a DeleteTransactionAccountsContainer ("-" for stdin)')
    .option('--data <json>', 'the same JSON inline')
    .option('--account <externalId>', 'the account (instead of --file)')
    .option('--balance <amount>', "the account's balance after the deletion (with --account)")
    .option('--transaction <externalId>', 'a transaction to delete (repeatable, with --account)', collect)
    .option('--type <type>', 'REAL_TIME, HISTORICAL or BATCH (with --account)', 'REAL_TIME')
    .action(async (o: Flags) => {
      const user = await externalUser(ctx, o.user);
      const body = await bodyOf(ctx, o);
      const accounts =
        (body as { transactionAccounts?: Array<{ externalId?: string; transactions?: unknown[] }> })
          .transactionAccounts ?? [];
      await confirmDestructive(ctx, {
        action: `delete transactions of connector user ${user}`,
        details: [
          `external user: ${user}`,
          ...accounts.map((a) => `account ${a.externalId}: ${a.transactions?.length ?? 0} transaction(s)`),
          ...(await where(ctx)),
        ],
      });
      await run(ctx, { user, body });
    });
  completeOption(cmd, '--type', () => INGEST_TYPES);
  return examples(cmd, [
    'bankctl connector transactions delete --user alice --account acc-1 --balance 950.25 --transaction tx-17 --transaction tx-18',
    'bankctl connector transactions delete --user alice --file delete.json --yes   # in a script: no terminal to confirm on',
  ]);
}

/** The container from --account/--balance/--transaction, or from --file/--data; checked either way. */
async function bodyOf(ctx: Context, o: Flags): Promise<unknown> {
  if (o.account === undefined) {
    const input = await jsonInput(ctx, o, 'the DeleteTransactionAccountsContainer');
    checkContainer(input.name, input.lineOf, input.value, 'delete');
    return input.value;
  }
  if (o.file || o.data) throw new UsageError('give --account with --transaction, or --file/--data, not both');
  if (!o.balance) throw new UsageError('--balance is required with --account (the spec requires the account balance)');
  if (!o.transaction?.length) throw new UsageError('--transaction EXTERNAL_ID is required with --account');
  if (!(INGEST_TYPES as readonly string[]).includes(o.type))
    throw new UsageError(`--type must be one of ${INGEST_TYPES.join(', ')}, got "${o.type}"`);
  const body = {
    type: o.type,
    transactionAccounts: [
      {
        externalId: o.account,
        balance: decimalFlag(o.balance, '--balance'),
        transactions: o.transaction.map((externalId) => ({ externalId })),
      },
    ],
  };
  try {
    validateContainer(body, 'delete');
  } catch (err) {
    // no file and no line: the flags are at fault (an empty --account or --transaction)
    if (err instanceof WireError) throw new UsageError(`--account/--transaction: ${err.message}`);
    throw err;
  }
  return body;
}

export async function deleteRun(ctx: Context, o: DeleteOptions): Promise<void> {
  await deleteTransactions(await ctx.api(), o.user, o.body);
  ctx.notice('deleted');
}
