// `connector accounts push --user U --file F`: all of a user's accounts in one batch. The file is
// json ({"accounts": [...]} or an array), ndjson (one AccountEntity a line) or csv (a header row),
// the same forms `connector push --accounts` reads; members bankctl does not know pass through.
import type { Command } from 'commander';
import { INPUT_FORMATS } from '../../../contract/connector-wire.js';
import { completeOption } from '../../completion.js';
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../../../context.js';
import { pushAccountsOnce } from '../../../api/connector.js';
import { UsageError } from '../../../errors.js';
import { readAccounts } from '../../../push/accounts.js';
import { inferFormat, type InputFormat } from '../../../push/input.js';
import { examples, type Run } from '../../util.js';
import { externalUser, inputFailure, readableFile } from '../shared.js';

export interface PushOptions {
  user: string;
  /** {"accounts": [AccountEntity...]}, numbers exact, each account checked. */
  body: { accounts: unknown[] };
}

interface Flags {
  file?: string;
  data?: string;
  format?: string;
  user?: string;
}

/** The input as a file to read: --file as given, stdin spooled, --data written to a temp file. */
async function source(
  ctx: Context,
  o: Flags,
): Promise<{ file: string; name: string; format: InputFormat; text?: string }> {
  if (o.file && o.data) throw new UsageError('give --file or --data, not both');
  if (o.data !== undefined) return { file: '', name: '--data', format: 'json', text: o.data };
  if (!o.file) throw new UsageError('give the accounts with --file FILE (or - for stdin) or --data JSON');
  let format: InputFormat;
  try {
    format = inferFormat(o.file === '-' ? '' : o.file, o.format ?? (o.file === '-' ? 'json' : undefined));
  } catch (err) {
    throw inputFailure(err);
  }
  if (o.file !== '-') {
    readableFile(o.file, '--file');
    return { file: o.file, name: o.file, format };
  }
  const spool = mkdtempSync(join(tmpdir(), 'bankctl-accounts-'));
  ctx.onCleanup(() => rmSync(spool, { recursive: true, force: true }));
  const file = join(spool, `stdin.${format}`);
  await pipeline(ctx.io.stdin, createWriteStream(file, { mode: 0o600 }));
  return { file, name: '-', format };
}

export function newCmdPush(parent: Command, ctx: Context, run: Run<PushOptions> = pushRun): Command {
  const cmd = parent
    .command('push')
    .description("send all of the user's accounts in one batch (POST /connector/users/{externalUserId}/accounts)")
    .option(
      '--file <file>',
      'AccountEntity as json ({"accounts": [...]}), ndjson or csv ("-" for stdin, json unless --format)',
    )
    .option('--format <format>', 'json, ndjson or csv (default: from the extension)')
    .option('--data <json>', 'the same JSON inline')
    .option('--user <externalUserId>', 'the user (externalId given at activation)')
    .action(async (o: Flags) => {
      const user = await externalUser(ctx, o.user);
      const src = await source(ctx, o);
      const list = await readAccounts(src.file, src.format, src.name, src.text).catch((err) =>
        Promise.reject(inputFailure(err)),
      );
      // an empty export is a failed one more often than a user with no accounts: not "pushed 0"
      if (list.length === 0)
        throw new UsageError(`${src.name === '-' ? 'stdin' : src.name} holds no accounts: nothing to push`);
      await run(ctx, { user, body: { accounts: list.map((a) => a.wire) } });
    });
  completeOption(cmd, '--format', () => INPUT_FORMATS);
  return examples(cmd, [
    'bankctl connector accounts push --user alice --file accounts.json',
    'bankctl connector accounts push --user alice --file accounts.csv',
    `bankctl connector accounts push --user alice --data '{"accounts":[{"externalId":"acc-1","name":"Main","number":"1234","balance":100.5,"type":"CHECKING"}]}'`,
  ]);
}

export async function pushRun(ctx: Context, o: PushOptions): Promise<void> {
  const how = await pushAccountsOnce(await ctx.api(), o.user, o.body);
  const n = o.body.accounts.length;
  ctx.notice(
    how === 'sent'
      ? `pushed ${n} account(s) for user ${o.user}`
      : `the ${n} account(s) of user ${o.user} are on the service: an attempt that got no answer (or a 5xx) may have stored them, and the one sent after it was answered 409 (they exist)`,
  );
}
