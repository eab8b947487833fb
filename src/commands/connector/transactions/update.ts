// `connector transactions update ID --user U --file F`: update one pushed transaction (REAL_TIME).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { updateTransaction } from '../../../api/connector.js';
import { isObj } from '../../../contract/connector-wire.js';
import { UsageError } from '../../../errors.js';
import { examples, type Run } from '../../util.js';
import { externalUser, isoDates, jsonInput, lineOfField } from '../shared.js';
import { checkContainer } from './shared.js';

export interface UpdateOptions {
  user: string;
  transactionId: string;
  /** A checked UpdateTransactionAccountContainer holding exactly one transaction. */
  body: unknown;
}

export function newCmdUpdate(parent: Command, ctx: Context, run: Run<UpdateOptions> = updateRun): Command {
  const cmd = parent
    .command('update <externalTransactionId>')
    .description(
      'update one transaction, e.g. book a pending one with "pending": false (PUT /connector/users/{externalUserId}/transactions/{id}; REAL_TIME only)',
    )
    .option('--user <externalUserId>', 'the user')
    .option(
      '--file <file>',
      'an UpdateTransactionAccountContainer holding the one transaction ("-" for stdin); "type" may be left out (REAL_TIME)',
    )
    .option('--data <json>', 'the same JSON inline')
    .action(async (transactionId: string, o: { user?: string; file?: string; data?: string }) => {
      const user = await externalUser(ctx, o.user);
      const input = await jsonInput(ctx, o, 'the UpdateTransactionAccountContainer');
      // an update is REAL_TIME, always: the service wants it said, the user need not say it
      if (isObj(input.value) && input.value.type === undefined) input.value.type = 'REAL_TIME';
      isoDates(
        input.value,
        (field, message) =>
          new UsageError(`${input.name}:${lineOfField(input.value, field, input.lineOf)}: ${field}: ${message}`),
      );
      checkContainer(input.name, input.lineOf, input.value, 'update');
      if (isObj(input.value) && Array.isArray(input.value.transactionAccounts)) {
        const n = input.value.transactionAccounts.reduce(
          (s: number, a) => s + (isObj(a) && Array.isArray(a.transactions) ? a.transactions.length : 0),
          0,
        );
        if (n !== 1) throw new UsageError(`${input.name}: an update holds exactly one transaction, got ${n}`);
      }
      await run(ctx, { user, transactionId, body: input.value });
    });
  return examples(cmd, [
    `bankctl connector transactions update tx-1 --user alice --data '{"transactionAccounts":[{"externalId":"acc-1","balance":900,"transactions":[{"externalId":"tx-1","amount":-100,"date":"2026-01-31","description":"Coffee","type":"DEFAULT","pending":false}]}]}'`,
    'bankctl connector transactions update tx-1 --user alice --file booked.json',
  ]);
}

export async function updateRun(ctx: Context, o: UpdateOptions): Promise<void> {
  await updateTransaction(await ctx.api(), o.user, o.transactionId, o.body);
  ctx.notice(`updated transaction ${o.transactionId}`);
}
