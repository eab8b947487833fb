// `connector accounts push --user U --file F`: all of a user's accounts in one batch.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { pushAccounts } from '../../../api/connector.js';
import { isObj, validateAccount } from '../../../contract/connector-wire.js';
import { UsageError } from '../../../errors.js';
import { examples, type Run } from '../../util.js';
import { checked, externalUser, jsonInput } from '../shared.js';

export interface PushOptions {
  user: string;
  /** {"accounts": [AccountEntity...]}, numbers exact, each account checked. */
  body: { accounts: unknown[] };
}

export function newCmdPush(parent: Command, ctx: Context, run: Run<PushOptions> = pushRun): Command {
  const cmd = parent
    .command('push')
    .description("send all of the user's accounts in one batch (POST /connector/users/{externalUserId}/accounts)")
    .option('--file <file>', 'JSON holding {"accounts": [AccountEntity...]} ("-" for stdin)')
    .option('--data <json>', 'the same JSON inline')
    .option('--user <externalUserId>', 'the user (externalId given at activation)')
    .action(async (o: { file?: string; data?: string; user?: string }) => {
      const user = await externalUser(ctx, o.user);
      const { value, name, lineOf } = await jsonInput(ctx, o, 'the accounts');
      if (!isObj(value) || !Array.isArray(value.accounts))
        throw new UsageError(`${name}:${lineOf(value)}: expected {"accounts": [AccountEntity...]}`);
      const seen = new Set<string>();
      value.accounts.forEach((a, i) => {
        const acc = checked(name, lineOf(a), () => validateAccount(a, `accounts[${i}].`));
        if (seen.has(acc.externalId))
          throw new UsageError(`${name}:${lineOf(a)}: account "${acc.externalId}" appears twice`);
        seen.add(acc.externalId);
      });
      await run(ctx, { user, body: value as { accounts: unknown[] } });
    });
  return examples(cmd, [
    'bankctl connector accounts push --user alice --file accounts.json',
    `bankctl connector accounts push --user alice --data '{"accounts":[{"externalId":"acc-1","name":"Main","number":"1234","balance":100.5,"type":"CHECKING"}]}'`,
  ]);
}

export async function pushRun(ctx: Context, o: PushOptions): Promise<void> {
  await pushAccounts(await ctx.api(), o.user, o.body);
  ctx.notice(`pushed ${o.body.accounts.length} account(s) for user ${o.user}`);
}
