// connector verify: read the pushed data back and compare counts, exact sums and which transactions
// (externalId and amount, as a fingerprint) per account.
import type { Command } from 'commander';
import { INPUT_FORMATS } from '../../contract/connector-wire.js';
import { completeOption } from '../completion.js';
import type { Context } from '../../context.js';
import { generateToken, listAccounts, transactionsPageFast, type V1Account } from '../../api/connector.js';
import { ApiError, FlowFailedError, UsageError } from '../../errors.js';
import { prefetchPages } from '../../api/paging.js';
import { inferFormat, type InputFormat } from '../../push/input.js';
import {
  compare,
  dateRanges,
  expectedFromFile,
  foldPage,
  pairBySamples,
  pairedByList,
  pairedByReadBack,
  type AccountTotals,
  type DateRange,
  type ExpectedTotals,
  type VerifyRow,
} from '../../push/verify.js';
import { describe as describeDifference, differences, readBackPage } from './drift.js';
import { render } from '../../output/render.js';
import { examples, parseIntArg } from '../util.js';
import { externalUser, inputFailure, readableFile, spooledInput } from './shared.js';
import type { ApiClient } from '../../api/client.js';
import { streamingHeap } from '../../heap.js';

interface VerifyInput {
  file: string;
  displayName: string;
  format: InputFormat;
  user: string;
  /** Date ranges read side by side. */
  concurrency: number;
}

/** HTTP Basic <externalId>:<token> when given, else a short-lived token generated for the user. */
async function readToken(ctx: Context, api: ApiClient, user: string): Promise<string | undefined> {
  if ((await ctx.settings()).value('basic')) return undefined;
  const scopes = ['transactions:read', 'accounts:read'];
  const { token } = await generateToken(api, { userId: user, scopes, ttl: 900, origin: 'bankctl verify' });
  api.http.redactor.add(token);
  return token;
}

/**
 * Every page of one date range (all of them when the file has no dates), the largest the service
 * allows, each folded into `out` while the next is fetched. A cursor is a chain (each page's token
 * comes with the one before), so what runs side by side is ranges, not pages.
 */
async function readRange(
  api: ApiClient,
  out: Map<string, AccountTotals>,
  range: DateRange | undefined,
  samples: ReadonlyMap<string, string>,
  bearer?: string,
): Promise<void> {
  const read = readBackPage(api, range, bearer);
  const size = (p: { transactions: unknown[] }) => p.transactions.length;
  for await (const page of prefetchPages(read, { all: true, what: 'GET /data/v2/transactions', size }))
    foldPage(out, page.transactions, samples);
}

/** The file's date range read back in `concurrency` ranges side by side. */
async function readBack(
  api: ApiClient,
  expected: ExpectedTotals,
  concurrency: number,
  bearer?: string,
): Promise<Map<string, AccountTotals>> {
  const out = new Map<string, AccountTotals>();
  const ranges: Array<DateRange | undefined> = dateRanges(expected, concurrency);
  if (ranges.length === 0) ranges.push(undefined);
  await Promise.all(ranges.map((r) => readRange(api, out, r, expected.samples, bearer)));
  return out;
}

/**
 * The transactions that differ in the accounts that drifted, said one a line on stderr (the first
 * ten); returns the first one's text for the error line. A second read of those accounts only:
 * "acc-1 differs" alone left the user to hunt for the transaction among thousands.
 */
async function whichTransactions(
  ctx: Context,
  api: ApiClient,
  o: VerifyInput,
  expected: ExpectedTotals,
  d: { drift: VerifyRow[]; paired?: Map<string, string>; accounts: V1Account[]; bearer?: string },
): Promise<string | undefined> {
  const idOf = new Map(d.paired ?? []);
  for (const a of d.accounts) if (typeof a.externalId === 'string') idOf.set(a.externalId, a.id);
  // accounts whose service transactions carry no providerTransactionId cannot be compared by id
  const wanted = new Map<string, string | undefined>();
  for (const r of d.drift) if (r.sameTransactions !== null) wanted.set(r.account, idOf.get(r.account));
  if (wanted.size === 0) return undefined;
  try {
    const { shown, total } = await differences(
      api,
      { file: o.file, format: o.format, range: dateRanges(expected, 1)[0], bearer: d.bearer },
      wanted,
    );
    if (total === 0) return undefined;
    ctx.notice(`verify: ${total} transaction(s) differ${total > shown.length ? ` (the first ${shown.length})` : ''}:`);
    for (const x of shown) ctx.notice(`  ${describeDifference(x)}`);
    return describeDifference(shown[0]!);
  } catch (err) {
    ctx.warn(`could not tell which transactions differ: ${(err as Error).message}`);
    return undefined;
  }
}

export async function verifyPush(ctx: Context, o: VerifyInput): Promise<void> {
  streamingHeap();
  const api = await ctx.api();
  // the service is asked while the file is read: a wrong user or token fails at once, not after a
  // scan of the whole file (and a service that builds its read index on the first read has begun)
  const ready = (async () => {
    const bearer = await readToken(ctx, api, o.user);
    await transactionsPageFast(api, { pageSize: 1 }, bearer);
    return bearer;
  })();
  const scan = expectedFromFile(o.file, o.format).catch((err) => Promise.reject(inputFailure(err, o.displayName)));
  const [expected, bearer] = await Promise.all([scan, ready]);
  // nothing to compare is not a match: "0 accounts match" would pass a check that checked nothing
  if (expected.accounts.size === 0)
    throw new UsageError(
      `${o.displayName} has no valid transaction to compare${expected.invalid > 0 ? ` (${expected.invalid} invalid record(s))` : ''}`,
      expected.invalid > 0 ? { hint: 'connector push --dry-run with the same file names each problem' } : {},
    );
  if (expected.invalid > 0)
    ctx.warn(
      `${expected.invalid} invalid record(s) in ${o.displayName} are not expected on the service (push --skip-invalid leaves them out; push --dry-run names them)`,
    );
  const [actual, accounts] = await Promise.all([
    readBack(api, expected, o.concurrency, bearer),
    listAccounts(api, bearer).catch((err: unknown): V1Account[] => {
      // a token that may not list accounts (Basic auth) pairs by the file's samples, quietly; any
      // other failure is said, since the pairing then rests on the samples alone
      if (!(err instanceof ApiError && (err.status === 401 || err.status === 403)))
        ctx.warn(
          `the user's accounts could not be listed (${(err as Error).message}); accounts are paired by the file's samples`,
        );
      return [];
    }),
  ]);
  // which service account holds which file account: the account list's externalIds, else the file's
  // samples met in the read-back, else (a sample lost on the service) one more pass over the file
  const paired = pairedByList(expected, accounts)
    ? undefined
    : (pairedByReadBack(expected, actual, accounts) ?? (await pairBySamples(o.file, o.format, actual)));
  const rows = compare(expected, actual, accounts, paired);
  const columns = ['account', 'expectedCount', 'actualCount', 'expectedSum', 'actualSum', 'sameTransactions', 'ok'];
  await render(ctx, rows, { columns: columns.map((k) => ({ header: k, path: k })) });
  const drift = rows.filter((r) => !r.ok);
  if (drift.length > 0) {
    const d = drift[0]!;
    const same = d.expectedCount === d.actualCount && d.expectedSum === d.actualSum;
    const first = await whichTransactions(ctx, api, o, expected, { drift, paired, accounts, bearer });
    throw new FlowFailedError(
      `verify: ${drift.length} of ${rows.length} account(s) differ from ${o.displayName}; first: ${d.account} expected ${d.expectedCount} transaction(s) summing ${d.expectedSum}, the service has ${d.actualCount} summing ${d.actualSum}${same ? ', but not the same transactions (an externalId or an amount differs)' : ''}${first ? `; ${first}` : ''}`,
    );
  }
  const unchecked = rows.filter((r) => r.sameTransactions === null).length;
  ctx.notice(
    unchecked === 0
      ? `verify: ${rows.length} account(s) match ${o.displayName}: counts, sums and each transaction's externalId and amount`
      : `verify: ${rows.length} account(s) match ${o.displayName}: counts and sums, and each transaction's externalId and amount except in ${unchecked} account(s) whose transactions on the service carry no providerTransactionId`,
  );
}

export function registerConnectorVerify(connector: Command, ctx: Context): void {
  const cmd = connector
    .command('verify')
    .description(
      "read pushed data back (/data/v2/transactions) and compare per account: counts, exact sums, and each transaction's externalId and amount; exit 9 on drift",
    )
    .requiredOption('--file <file>', 'the file that was pushed ("-" for stdin)')
    .option('--format <format>', 'json, ndjson or csv (default: from the extension)')
    .option('--user <externalUserId>', 'the user')
    .option('--concurrency <n>', 'date ranges of the file read back side by side (default 4)')
    .action(async (o: { file: string; format?: string; user?: string; concurrency?: string }) => {
      const concurrency = parseIntArg(o.concurrency, '--concurrency', { min: 1, max: 64 }) ?? 4;
      const user = await externalUser(ctx, o.user);
      const stdin = o.file === '-';
      if (!stdin) readableFile(o.file, '--file');
      let format: InputFormat;
      try {
        format = inferFormat(stdin ? '' : o.file, o.format ?? (stdin ? 'ndjson' : undefined));
      } catch (err) {
        throw inputFailure(err);
      }
      const file = await spooledInput(ctx, o.file, format);
      await verifyPush(ctx, { file, displayName: stdin ? 'stdin' : o.file, format, user, concurrency });
    });
  completeOption(cmd, '--format', () => INPUT_FORMATS);
  examples(cmd, [
    'bankctl connector verify --user alice --file transactions.ndjson',
    'BANKCTL_BASIC="alice:$ALICE_TOKEN" bankctl connector verify --user alice --file history.json',
  ]);
}
