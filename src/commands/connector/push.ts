// connector push: stream a json/ndjson/csv file of transactions into the service (flows/push.ts).
import type { Command } from 'commander';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../../context.js';
import { ingestTransactions } from '../../api/connector.js';
import { INGEST_TYPES, WireError } from '../../contract/connector-wire.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { inferFormat, InputError, readAccountsFile } from '../../flows/push-input.js';
import { pushTransactions, type IngestType, type PushResult } from '../../flows/push.js';
import { examples, parseIntArg } from '../util.js';
import { inputFailure, externalUser, readableFile, writableFile } from './shared.js';
import { verifyPush } from './verify.js';

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

export function registerConnectorPush(connector: Command, ctx: Context): void {
  const cmd = connector
    .command('push')
    .description(
      'push transactions from a json, ndjson or csv file: validated first, chunked to 2500, retried, resumable',
    )
    .requiredOption('--file <file>', 'input file ("-" for stdin)')
    .option('--format <format>', 'json, ndjson or csv (default: from the extension)')
    .option('--type <type>', `${INGEST_TYPES.join(', ')} (default: json input's own type, else HISTORICAL)`)
    .option('--user <externalUserId>', 'the user (externalId given at activation)')
    .option('--accounts <file>', 'NDJSON of AccountEntity: balances for ndjson and csv input')
    .option('--concurrency <n>', 'chunks in flight at once (default 4)')
    .option('--checkpoint <file>', 'record delivered chunks here; a rerun resumes without resending them')
    .option('--report <file>', 'write the summary with per-chunk and per-account results as JSON')
    .option('--dry-run', 'validate and count, send nothing')
    .option(
      '--skip-invalid <rejectsFile>',
      'send the valid records and write the malformed ones (NDJSON: line, error) here',
    )
    .option('--verify', 'after the push, read the data back and compare counts and sums per account (exit 9 on drift)')
    .action(async (o: PushFlags) => {
      const user = await externalUser(ctx, o.user);
      const concurrency = parseIntArg(o.concurrency, '--concurrency', { min: 1, max: 64 }) ?? 4;
      if (o.type !== undefined && !(INGEST_TYPES as readonly string[]).includes(o.type))
        throw new UsageError(`--type must be one of ${INGEST_TYPES.join(', ')}`);
      let format;
      try {
        format = inferFormat(
          o.file === '-' ? '' : o.file,
          o.format ?? (o.file === '-' && !o.format ? 'ndjson' : undefined),
        );
      } catch (err) {
        throw inputFailure(err);
      }
      if (o.file !== '-') readableFile(o.file, '--file');
      if (o.accounts) readableFile(o.accounts, '--accounts');
      if (o.checkpoint) writableFile(o.checkpoint, '--checkpoint');
      if (o.report) writableFile(o.report, '--report');
      if (o.skipInvalid) writableFile(o.skipInvalid, '--skip-invalid');
      let file = o.file;
      let spool: string | undefined;
      if (o.file === '-') {
        // two passes need the input twice: stdin is spooled to a private temp file
        spool = mkdtempSync(join(tmpdir(), 'bankctl-push-'));
        file = join(spool, `stdin.${format}`);
        await pipeline(ctx.io.stdin, createWriteStream(file, { mode: 0o600 }));
        ctx.onCleanup(() => rmSync(spool!, { recursive: true, force: true }));
      }
      const accounts = o.accounts
        ? await readAccountsFile(o.accounts).catch((err) => Promise.reject(inputFailure(err)))
        : undefined;
      const api = await ctx.api();
      const abort = new AbortController();
      const release = ctx.claimInterrupt(() => abort.abort());
      const progress = new Progress(ctx);
      let result: PushResult;
      try {
        result = await pushTransactions(
          {
            file,
            displayName: o.file,
            format,
            user,
            type: o.type as IngestType | undefined,
            concurrency,
            checkpoint: o.checkpoint,
            dryRun: o.dryRun,
            rejectsFile: o.skipInvalid,
            accounts,
          },
          {
            send: (body, signal) => ingestTransactions(api, user, body, signal),
            signal: abort.signal,
            now: () => ctx.clock.now(),
            onPlanned: (n) => progress.start(n),
            onProgress: (n) => progress.update(n),
            warn: (m) => ctx.warn(m),
          },
        );
      } catch (err) {
        throw inputFailure(err);
      } finally {
        progress.stop();
        release();
      }
      const s = result.summary;
      const rate = s.elapsedMs > 0 ? Math.round((s.sent / s.elapsedMs) * 1000) : 0;
      ctx.notice(
        o.dryRun
          ? `dry run: ${s.transactions} transaction(s) valid in ${s.chunks} chunk(s) of at most 2500, ${s.rejected} rejected; nothing sent`
          : `pushed ${o.file}: ${s.transactions} transaction(s) in ${s.chunks} chunk(s)${s.resumedChunks ? ` (${s.resumedChunks} delivered before, skipped)` : ''}: sent ${s.sent}, delivered ${s.delivered}, duplicates ${s.duplicates}, rejected ${s.rejected}${s.gone ? `, deleted before ${s.gone}` : ''} in ${(s.elapsedMs / 1000).toFixed(1)}s (${rate}/s)`,
      );
      if (o.report) writeReport(o.report, result);
      if (abort.signal.aborted)
        throw new InterruptedError(
          `push interrupted${o.checkpoint ? `; rerun with --checkpoint ${o.checkpoint} to resume` : ''}`,
        );
      if (result.error !== undefined) {
        const err = result.error as Error & { hint?: string };
        if (o.checkpoint && !err.hint) err.hint = `rerun with --checkpoint ${o.checkpoint} to resume where it stopped`;
        throw err;
      }
      if (o.verify && !o.dryRun) await verifyPush(ctx, { file, displayName: o.file, format, user });
    });
  examples(cmd, [
    'bankctl connector push --user alice --file transactions.ndjson --accounts accounts.ndjson',
    'bankctl connector push --user alice --file history.json --checkpoint push.ckpt --report push-report.json',
    'bankctl connector push --user alice --file export.csv --type HISTORICAL --skip-invalid rejects.ndjson --verify',
    'bankctl connector push --user alice --file transactions.ndjson --dry-run',
  ]);
  void WireError;
  void InputError;
}

function writeReport(path: string, r: PushResult): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    `${JSON.stringify({ summary: r.summary, error: r.error ? String((r.error as Error).message ?? r.error) : undefined, chunks: r.chunks, accounts: r.accounts }, null, 2)}\n`,
  );
  renameSync(tmp, path);
}

/** A one-line progress bar with rate and ETA on stderr, only on a TTY and without --quiet. */
class Progress {
  private total = 0;
  private done = 0;
  private started = 0;
  private timer?: NodeJS.Timeout;
  private readonly on: boolean;
  constructor(private readonly ctx: Context) {
    this.on = ctx.io.stderrIsTTY && !ctx.quiet;
  }
  start(total: number): void {
    this.total = total;
    this.started = this.ctx.clock.now();
    if (!this.on) return;
    this.timer = setInterval(() => this.draw(), 200);
    this.timer.unref();
    this.draw();
  }
  update(done: number): void {
    this.done = done;
  }
  private draw(): void {
    const elapsed = (this.ctx.clock.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const eta = rate > 0 ? Math.max(0, (this.total - this.done) / rate) : undefined;
    const width = Math.max(10, Math.min(40, this.ctx.io.columns - 60));
    const frac = this.total > 0 ? Math.min(1, this.done / this.total) : 0;
    const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '-');
    const etaText =
      eta === undefined ? '--:--' : `${Math.floor(eta / 60)}:${String(Math.round(eta % 60)).padStart(2, '0')}`;
    this.ctx.io.stderr.write(`\r[${bar}] ${this.done}/${this.total} ${Math.round(rate)}/s ETA ${etaText} `);
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.on && this.timer) this.ctx.io.stderr.write('\r\x1b[K');
  }
}
