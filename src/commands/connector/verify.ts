// connector verify: read the pushed data back and compare counts and exact sums per account.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { generateToken, listAccounts, transactionsPageFast, type V2Transaction } from '../../api/connector.js';
import { MAX_PAGE_SIZE } from '../../api/transactions.js';
import { FlowFailedError, UsageError } from '../../errors.js';
import { inferFormat, type InputFormat } from '../../push/input.js';
import {
  actualTotals,
  compare,
  expectedFromFile,
  pairBySamples,
  pairedByList,
  type ExpectedTotals,
} from '../../push/verify.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';
import { externalUser, inputFailure, readableFile } from './shared.js';
import type { ApiClient } from '../../api/client.js';

interface VerifyInput {
  file: string;
  displayName: string;
  format: InputFormat;
  user: string;
}

/** HTTP Basic <externalId>:<token> when given, else a short-lived token generated for the user. */
async function readToken(ctx: Context, api: ApiClient, user: string): Promise<string | undefined> {
  if ((await ctx.settings()).value('basic')) return undefined;
  const scopes = ['transactions:read', 'accounts:read'];
  const { token } = await generateToken(api, { userId: user, scopes, ttl: 900, origin: 'bankctl verify' });
  api.http.redactor.add(token);
  return token;
}

/** Every page of the file's date range, the largest the service allows, the next one fetched while this one is folded. */
async function* pages(api: ApiClient, expected: ExpectedTotals, bearer?: string): AsyncGenerator<V2Transaction[]> {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const query: Record<string, string | number | undefined> = { pageSize: MAX_PAGE_SIZE };
  if (Number.isFinite(expected.minDate)) {
    query.bookedDateGte = day(expected.minDate);
    query.bookedDateLte = day(expected.maxDate);
  }
  type Page = Awaited<ReturnType<typeof transactionsPageFast>>;
  let pending: Promise<Page> | undefined = transactionsPageFast(api, query, bearer);
  let previous: string | undefined;
  while (pending) {
    const page: Page = await pending;
    const next: string | undefined = page.nextPageToken || undefined;
    if (next !== undefined && next === previous)
      throw new UsageError('the service returned the same nextPageToken twice; stopping to avoid a loop');
    previous = next;
    pending = next ? transactionsPageFast(api, { ...query, pageToken: next }, bearer) : undefined;
    // a failure of the prefetch surfaces when it is awaited, not as an unhandled rejection
    pending?.catch(() => undefined);
    yield page.transactions ?? [];
  }
}

export async function verifyPush(ctx: Context, o: VerifyInput): Promise<void> {
  const expected = await expectedFromFile(o.file, o.format).catch((err) => Promise.reject(inputFailure(err)));
  const api = await ctx.api();
  const bearer = await readToken(ctx, api, o.user);
  const actual = await actualTotals(pages(api, expected, bearer));
  const accounts = await listAccounts(api, bearer).catch(() => []);
  const paired = pairedByList(expected, accounts) ? undefined : await pairBySamples(o.file, o.format, actual);
  const rows = compare(expected, actual, accounts, paired);
  const columns = ['account', 'expectedCount', 'actualCount', 'expectedSum', 'actualSum', 'ok'];
  await render(ctx, rows, { columns: columns.map((k) => ({ header: k, path: k })) });
  const drift = rows.filter((r) => !r.ok);
  if (drift.length > 0) {
    const d = drift[0]!;
    throw new FlowFailedError(
      `verify: ${drift.length} of ${rows.length} account(s) differ from ${o.displayName}; first: ${d.account} expected ${d.expectedCount} transactions summing ${d.expectedSum}, the service has ${d.actualCount} summing ${d.actualSum}`,
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
