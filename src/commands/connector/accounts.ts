// connector accounts push|update|delete (the user's accounts, in one batch; then updates).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { deleteConnectorAccount, pushAccounts, updateConnectorAccount } from '../../api/connector.js';
import { EXCLUSIONS, WireError, isObj, validateAccount } from '../../api/connector-wire.js';
import { UsageError } from '../../errors.js';
import { examples } from '../util.js';
import { checked, externalUser, jsonInput } from './shared.js';

export function registerConnectorAccounts(connector: Command, ctx: Context): void {
  const accounts = connector.command('accounts').description("push, update and delete a connector user's accounts");

  const push = accounts
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
      await pushAccounts(await ctx.api(), user, value);
      ctx.notice(`pushed ${value.accounts.length} account(s) for user ${user}`);
    });
  examples(push, [
    'bankctl connector accounts push --user alice --file accounts.json',
    `bankctl connector accounts push --user alice --data '{"accounts":[{"externalId":"acc-1","name":"Main","number":"1234","balance":100.5,"type":"CHECKING"}]}'`,
  ]);

  const update = accounts
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
      await updateConnectorAccount(await ctx.api(), user, accountId, {
        name: o.name,
        closed: o.closed,
        exclusion: o.exclusion,
      });
      ctx.notice(`updated account ${accountId}`);
    });
  examples(update, [
    'bankctl connector accounts update acc-1 --user alice --name "Household"',
    'bankctl connector accounts update acc-1 --user alice --closed --exclusion PFM_DATA',
  ]);

  const del = accounts
    .command('delete <externalAccountId>')
    .description(
      'delete an account and its transactions (DELETE /connector/users/{externalUserId}/accounts/{externalAccountId})',
    )
    .option('--user <externalUserId>', 'the user')
    .action(async (accountId: string, o: { user?: string }) => {
      const user = await externalUser(ctx, o.user);
      await deleteConnectorAccount(await ctx.api(), user, accountId);
      ctx.notice(`deleted account ${accountId}`);
    });
  examples(del, ['bankctl connector accounts delete acc-1 --user alice']);
  examples(accounts, [
    'bankctl connector accounts push --user alice --file accounts.json',
    'bankctl connector accounts update acc-1 --user alice --closed',
  ]);
  void WireError;
}
