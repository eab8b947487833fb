// connector push: stream a json/ndjson/csv file of transactions into the service (src/push/).
import type { Command } from 'commander';
import { completeOption } from '../completion.js';
import { rmSync, writeFileSync, renameSync } from 'node:fs';
import type { Context } from '../../context.js';
import { ingestTransactions } from '../../api/connector.js';
import { BALANCE_IGNORED_TYPE, INPUT_FORMATS, INGEST_TYPES, type ExactNumber } from '../../contract/connector-wire.js';
import { BankctlError, ExitCode, InterruptedError, UsageError } from '../../errors.js';
import { readAccounts } from '../../push/accounts.js';
import { inferFormat, type InputFormat } from '../../push/input.js';
import { pushTransactions, type IngestType, type PushResult, type PushSummary } from '../../push/push.js';
import { examples, parseIntArg } from '../util.js';
import { inputFailure, externalUser, readableFile, spooledInput, writableFile } from './shared.js';
import { verifyPush } from './verify.js';
import { Progress } from './progress.js';

interface PushFlags {
  file: string;
  format?: string;
  type?: string;
  user?: string;
  accounts?: string;
  concurrency?: string;
  checkpoint?: string;
  report?: string;
  dryRun?: boolean;
  skipInvalid?: string;
  verify?: boolean;
}

/** The report could not be written after the push: the data is in, the file is not. */
class ReportError extends BankctlError {
  override readonly exitCode = ExitCode.NETWORK;
}

/** The flags checked before anything is read: exit 2 naming the flag. */
function checkFlags(o: PushFlags): { concurrency: number; format: InputFormat } {
  const concurrency = parseIntArg(o.concurrency, '--concurrency', { min: 1, max: 64 }) ?? 4;
  if (o.type !== undefined && !(INGEST_TYPES as readonly string[]).includes(o.type))
    throw new UsageError(`--type must be one of ${INGEST_TYPES.join(', ')}, got "${o.type}"`);
  // a mistyped path says so before anything is said about its extension (as verify does)
  if (o.file !== '-') readableFile(o.file, '--file');
  let format: InputFormat;
  try {
    format = inferFormat(o.file === '-' ? '' : o.file, o.format ?? (o.file === '-' ? 'ndjson' : undefined));
  } catch (err) {
    throw inputFailure(err);
  }
  if (o.accounts) readableFile(o.accounts, '--accounts');
  if (o.checkpoint) writableFile(o.checkpoint, '--checkpoint');
  if (o.report) writableFile(o.report, '--report');
  if (o.skipInvalid) writableFile(o.skipInvalid, '--skip-invalid');
  return { concurrency, format };
}

/** --accounts FILE: AccountEntity as ndjson, json or csv (the forms `connector accounts push` reads). */
async function balancesOf(
  file: string | undefined,
): Promise<Map<string, { balance: ExactNumber; reservedAmount?: ExactNumber }> | undefined> {
  if (!file) return undefined;
  try {
    const list = await readAccounts(
      file,
      inferFormat(
        file,
        file.toLowerCase().endsWith('.json') || file.toLowerCase().endsWith('.csv') ? undefined : 'ndjson',
      ),
    );
    return new Map(list.map((a) => [a.externalId, { balance: a.balance, reservedAmount: a.reservedAmount }]));
  } catch (err) {
    throw inputFailure(err);
  }
}

function summaryLine(o: PushFlags, s: PushSummary, failed: boolean): string {
  if (s.interrupted && s.transactions === 0 && s.chunks === 0)
    return `${o.dryRun ? 'dry run' : 'push'} of ${o.file} interrupted while checking the input; nothing sent`;
  if (o.dryRun)
    return `dry run: ${s.transactions} transaction(s) valid in ${s.chunks} chunk(s) of at most 2500, ${s.rejected} rejected; nothing sent`;
  const rate = s.elapsedMs > 0 ? Math.round((s.sent / s.elapsedMs) * 1000) : 0;
  const head = s.interrupted
    ? `push of ${o.file} interrupted: ${s.delivered + s.duplicates + s.gone} of ${s.transactions} transaction(s) answered for`
    : failed
      ? `push of ${o.file} failed: ${s.delivered + s.duplicates + s.gone} of ${s.transactions} transaction(s) answered for`
      : `pushed ${o.file}: ${s.transactions} transaction(s) in ${s.chunks} chunk(s)${s.resumedChunks ? ` (${s.resumedChunks} delivered before, skipped)` : ''}`;
  return `${head}: sent ${s.sent}, delivered ${s.delivered}, duplicates ${s.duplicates}, rejected ${s.rejected}${s.gone ? `, deleted before ${s.gone}` : ''} in ${(s.elapsedMs / 1000).toFixed(1)}s (${rate}/s)`;
}

function writeReport(path: string, r: PushResult): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const error = r.error ? String((r.error as Error).message ?? r.error) : undefined;
  try {
    writeFileSync(
      tmp,
      `${JSON.stringify({ summary: r.summary, error, chunks: r.chunks, accounts: r.accounts }, null, 2)}\n`,
      { mode: 0o600 },
    );
    renameSync(tmp, path);
  } catch (err) {
    // the clean-up may fail the same way (a name too long): the report's own error is the one to tell
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written under that name
    }
    const s = r.summary;
    const state =
      r.error === undefined && !s.interrupted && !s.dryRun
        ? `all ${s.transactions} transaction(s) were delivered (${s.delivered} new, ${s.duplicates} duplicates); `
        : '';
    throw new ReportError(
      `--report: cannot write ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ${state}only the report is missing`,
    );
  }
}

/** Removes a report left by an earlier run (what fails here is said by the run's own error). */
function dropReport(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // not removable (a directory, no permission): the run's error is the one to tell
  }
}

/** The report of a run that had nothing to push; a report that cannot be written is a warning beside the exit 2. */
function reportEmpty(ctx: Context, path: string, r: PushResult): void {
  try {
    writeReport(path, r);
  } catch (err) {
    dropReport(path);
    ctx.warn((err as Error).message.replace(/: only the report is missing$/, ''));
  }
}

/** What the push ends with: interrupted, the first failure, or the report's own failure. */
function outcome(o: PushFlags, result: PushResult, aborted: boolean): void {
  if (o.report) writeReport(o.report, result);
  if (aborted)
    throw new InterruptedError(
      `push interrupted${o.checkpoint ? `; rerun with --checkpoint ${o.checkpoint} to resume` : ''}`,
    );
  if (result.error === undefined) return;
  const err = result.error as Error & { hint?: string };
  if (o.checkpoint && !err.hint) err.hint = `rerun with --checkpoint ${o.checkpoint} to resume where it stopped`;
  throw err;
}

async function pushAction(ctx: Context, o: PushFlags): Promise<void> {
  const user = await externalUser(ctx, o.user);
  const { concurrency, format } = checkFlags(o);
  const file = await spooledInput(ctx, o.file, format);
  const accounts = await balancesOf(o.accounts);
  const api = await ctx.api();
  const abort = new AbortController();
  const release = ctx.claimInterrupt(() => abort.abort());
  const progress = new Progress(ctx);
  let result: PushResult;
  try {
    const options = { file, displayName: o.file, format, user, service: await ctx.baseUrl(), concurrency, accounts };
    result = await pushTransactions(
      {
        ...options,
        type: o.type as IngestType | undefined,
        checkpoint: o.checkpoint,
        dryRun: o.dryRun,
        rejectsFile: o.skipInvalid,
      },
      {
        send: (body, signal, events) =>
          ingestTransactions(api, user, body, {
            signal,
            onBodyDone: events?.done,
            onAttempt: events?.attempt,
            onAbandoned: events?.lost,
          }),
        signal: abort.signal,
        now: () => ctx.clock.now(),
        onPlanned: (n) => progress.start(n),
        onProgress: (n) => progress.update(n),
        warn: (m) => ctx.warn(m),
      },
    );
  } catch (err) {
    // no result to report: a report of an earlier run left at that name would pass for this one's
    if (o.report) dropReport(o.report);
    throw inputFailure(err);
  } finally {
    progress.stop();
    release();
  }
  const s = result.summary;
  // an empty file (an export that failed, a file not yet written) is not "pushed 0 transactions",
  // exit 0; nor is a json container of accounts without transactions (their balances would not go)
  if (s.transactions === 0 && s.rejected === 0 && !s.interrupted && result.error === undefined) {
    const empty = new UsageError(`${o.file === '-' ? 'stdin' : o.file} holds no transactions: nothing to push`);
    // the report says so (nothing sent, and why), rather than an earlier run's report staying as it was
    if (o.report) reportEmpty(ctx, o.report, { ...result, error: empty });
    throw empty;
  }
  ctx.notice(summaryLine(o, s, result.error !== undefined));
  if (result.summary.type === BALANCE_IGNORED_TYPE && !o.dryRun)
    ctx.warn(
      'type HISTORICAL is deprecated and the service ignores the account balances it carries (the report says balanceSent false): --type BATCH applies them',
    );
  outcome(o, result, abort.signal.aborted);
  if (o.verify && !o.dryRun) await verifyPush(ctx, { file, displayName: o.file, format, user, concurrency });
}

export function registerConnectorPush(connector: Command, ctx: Context): void {
  const cmd = connector
    .command('push')
    .description(
      'push transactions from a json, ndjson or csv file: validated first, chunked to 2500, retried, resumable',
    )
    .requiredOption('--file <file>', 'input file ("-" for stdin)')
    .option('--format <format>', 'json, ndjson or csv (default: from the extension)')
    .option(
      '--type <type>',
      `${INGEST_TYPES.join(', ')} (default: json input's own type, else BATCH; HISTORICAL's balances are ignored)`,
    )
    .option('--user <externalUserId>', 'the user (externalId given at activation)')
    .option(
      '--accounts <file>',
      'AccountEntity as ndjson, json or csv (by extension): balances for ndjson and csv input',
    )
    .option('--concurrency <n>', 'chunks in flight at once (default 4)')
    .option('--checkpoint <file>', 'record delivered chunks here; a rerun resumes without resending them')
    .option('--report <file>', 'write the summary with per-chunk and per-account results as JSON')
    .option('--dry-run', 'validate and count, send nothing')
    .option(
      '--skip-invalid <rejectsFile>',
      'send the valid records and write the malformed ones (NDJSON: line, error) here',
    )
    .option(
      '--verify',
      "after the push, read the data back and compare per account: counts, sums, each transaction's externalId and amount (exit 9 on drift)",
    )
    .action((o: PushFlags) => pushAction(ctx, o));
  completeOption(cmd, '--type', () => INGEST_TYPES);
  completeOption(cmd, '--format', () => INPUT_FORMATS);
  examples(cmd, [
    'bankctl connector push --user alice --file transactions.ndjson --accounts accounts.ndjson',
    'bankctl connector push --user alice --file history.json --checkpoint push.ckpt --report push-report.json',
    'bankctl connector push --user alice --file export.csv --accounts accounts.ndjson --type BATCH --skip-invalid rejects.ndjson --verify',
    'bankctl connector push --user alice --file transactions.ndjson --accounts accounts.ndjson --dry-run',
    // what a line of the input is: no other example or flag said
    `echo '{"account":"acc-1","externalId":"t-1","amount":-12.50,"date":"2026-01-31","description":"Coffee","type":"DEFAULT","balance":987.50}' | bankctl connector push --user alice --file - --format ndjson   # one transaction a line`,
  ]);
}
