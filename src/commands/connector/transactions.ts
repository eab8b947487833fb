// connector transactions delete|update.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteTransactions, updateTransaction } from '../../api/connector.js';
import { ExactNumber, WireError, isObj, validateContainer } from '../../api/connector-wire.js';
import { UsageError } from '../../errors.js';
import { collect, examples } from '../util.js';
import { externalUser, jsonInput } from './shared.js';

function decimalFlag(v: string, flag: string): ExactNumber {
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?$/.test(v.trim()))
    throw new UsageError(`${flag} must be a decimal number, got "${v}"`);
  return new ExactNumber(v.trim());
}

function checkContainer(name: string, lineOf: (v: unknown) => number, value: unknown, mode: 'delete' | 'update'): void {
  try {
    validateContainer(value, mode);
  } catch (err) {
    if (err instanceof WireError) throw new UsageError(`${name}:${lineOf(value)}: ${err.message}`);
    throw err;
  }
}

export function registerConnectorTransactions(connector: Command, ctx: Context): void {
  const tx = connector.command('transactions').description('delete or update pushed transactions');

  const del = tx
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
    .action(
      async (o: {
        user?: string;
        file?: string;
        data?: string;
        account?: string;
        balance?: string;
        transaction?: string[];
        type: string;
      }) => {
        const user = await externalUser(ctx, o.user);
        let body: unknown;
        if (o.account !== undefined) {
          if (o.file || o.data) throw new UsageError('give --account with --transaction, or --file/--data, not both');
          if (!o.balance)
            throw new UsageError('--balance is required with --account (the spec requires the account balance)');
          if (!o.transaction?.length) throw new UsageError('--transaction EXTERNAL_ID is required with --account');
          body = {
            type: o.type,
            transactionAccounts: [
              {
                externalId: o.account,
                balance: decimalFlag(o.balance, '--balance'),
                transactions: o.transaction.map((externalId) => ({ externalId })),
              },
            ],
          };
          checkContainer('flags', () => 0, body, 'delete');
        } else {
          const input = await jsonInput(ctx, o, 'the DeleteTransactionAccountsContainer');
          checkContainer(input.name, input.lineOf, input.value, 'delete');
          body = input.value;
        }
        await deleteTransactions(await ctx.api(), user, body);
        ctx.notice('deleted');
      },
    );
  examples(del, [
    'bankctl connector transactions delete --user alice --account acc-1 --balance 950.25 --transaction tx-17 --transaction tx-18',
    'bankctl connector transactions delete --user alice --file delete.json',
  ]);

  const update = tx
    .command('update <externalTransactionId>')
    .description(
      'update one transaction, e.g. book a pending one with "pending": false (PUT /connector/users/{externalUserId}/transactions/{id}; REAL_TIME only)',
    )
    .option('--user <externalUserId>', 'the user')
    .option('--file <file>', 'an UpdateTransactionAccountContainer holding the one transaction ("-" for stdin)')
    .option('--data <json>', 'the same JSON inline')
    .action(async (txId: string, o: { user?: string; file?: string; data?: string }) => {
      const user = await externalUser(ctx, o.user);
      const input = await jsonInput(ctx, o, 'the UpdateTransactionAccountContainer');
      checkContainer(input.name, input.lineOf, input.value, 'update');
      if (isObj(input.value) && Array.isArray(input.value.transactionAccounts)) {
        const n = input.value.transactionAccounts.reduce(
          (s: number, a) => s + (isObj(a) && Array.isArray(a.transactions) ? a.transactions.length : 0),
          0,
        );
        if (n !== 1) throw new UsageError(`${input.name}: an update holds exactly one transaction, got ${n}`);
      }
      await updateTransaction(await ctx.api(), user, txId, input.value);
      ctx.notice(`updated transaction ${txId}`);
    });
  examples(update, [
    `bankctl connector transactions update tx-1 --user alice --data '{"type":"REAL_TIME","transactionAccounts":[{"externalId":"acc-1","balance":900,"transactions":[{"externalId":"tx-1","amount":-100,"date":1700000000000,"description":"Coffee","type":"DEFAULT","pending":false}]}]}'`,
    'bankctl connector transactions update tx-1 --user alice --file booked.json',
  ]);
  examples(tx, [
    'bankctl connector transactions delete --user alice --account acc-1 --balance 950.25 --transaction tx-17',
    'bankctl connector transactions update tx-1 --user alice --file booked.json',
  ]);
}
