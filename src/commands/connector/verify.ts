// connector verify: read the pushed data back and compare counts and exact sums per account.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { generateToken, listAccounts, transactionsPage, type V2Transaction } from '../../api/connector.js';
import { FlowFailedError } from '../../errors.js';
import { inferFormat, type InputFormat } from '../../flows/push-input.js';
import { actualTotals, compare, expectedFromFile, pairBySamples } from '../../flows/verify.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { externalUser, inputFailure, readableFile } from './shared.js';

export async function verifyPush(
  ctx: Context,
  o: { file: string; displayName: string; format: InputFormat; user: string },
): Promise<void> {
  const expected = await expectedFromFile(o.file, o.format).catch((err) => Promise.reject(inputFailure(err)));
  const api = await ctx.api();
  const basic = (await ctx.settings()).value('basic');
  // HTTP Basic <externalId>:<token> when given, else a short-lived token generated for the user
  const bearer = basic
    ? undefined
    : (
        await generateToken(api, {
          userId: o.user,
          scopes: ['transactions:read', 'accounts:read'],
          ttl: 900,
          origin: 'bankctl verify',
        })
      ).token;
  if (bearer) api.http.redactor.add(bearer);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const query: Record<string, string | number | undefined> = { pageSize: 100 };
  if (Number.isFinite(expected.minDate)) {
    query.bookedDateGte = day(expected.minDate);
    query.bookedDateLte = day(expected.maxDate);
  }
  async function* pages(): AsyncGenerator<V2Transaction[]> {
    let pageToken: string | undefined;
    do {
      const page = await transactionsPage(api, { ...query, pageToken }, bearer);
      yield page.transactions ?? [];
      pageToken = page.nextPageToken || undefined;
    } while (pageToken);
  }
  const actual = await actualTotals(pages());
  const accounts = await listAccounts(api, bearer).catch(() => []);
  const rows = compare(expected, actual, accounts, await pairBySamples(o.file, o.format, actual));
  await render(ctx, rows, {
    columns: ['account', 'expectedCount', 'actualCount', 'expectedSum', 'actualSum', 'ok'].map((k) => ({
      header: k,
      path: k,
    })),
  });
  const drift = rows.filter((r) => !r.ok);
  if (drift.length > 0) {
    throw new FlowFailedError(
      `verify: ${drift.length} of ${rows.length} account(s) differ from ${o.displayName}; first: ${drift[0]!.account} expected ${drift[0]!.expectedCount} transactions summing ${drift[0]!.expectedSum}, the service has ${drift[0]!.actualCount} summing ${drift[0]!.actualSum}`,
    );
  }
  ctx.notice(`verify: ${rows.length} account(s) match ${o.displayName}: counts and sums`);
}

export function registerConnectorVerify(connector: Command, ctx: Context): void {
  const cmd = connector
    .command('verify')
    .description(
      'read pushed data back (/data/v2/transactions) and compare counts and exact sums per account; exit 9 on drift',
    )
    .requiredOption('--file <file>', 'the file that was pushed')
    .option('--format <format>', 'json, ndjson or csv (default: from the extension)')
    .option('--user <externalUserId>', 'the user')
    .action(async (o: { file: string; format?: string; user?: string }) => {
      const user = await externalUser(ctx, o.user);
      readableFile(o.file, '--file');
      let format: InputFormat;
      try {
        format = inferFormat(o.file, o.format);
      } catch (err) {
        throw inputFailure(err);
      }
      await verifyPush(ctx, { file: o.file, displayName: o.file, format, user });
    });
  examples(cmd, [
    'bankctl connector verify --user alice --file transactions.ndjson',
    'BANKCTL_BASIC="alice:$ALICE_TOKEN" bankctl connector verify --user alice --file history.json',
  ]);
}
