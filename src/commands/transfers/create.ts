// `transfers create`: a bank transfer or payment from the user's account; --wait follows it to its end.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import {
  createTransfer,
  FINAL_OPERATION_STATUSES,
  transferStatus,
  transferUriProblem,
  type SignableOperation,
  type TransferRequest,
} from '../../api/transfers.js';
import type { ApiClient } from '../../api/client.js';
import { FlowFailedError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { beyondMinorUnits } from '../../output/money.js';
import { examples, parseIntArg, type Run } from '../util.js';

/** The api's TransferRequest (the amount exactly as typed, trimmed: never through a float) and how to wait. */
export interface CreateOptions extends Omit<TransferRequest, 'dueDate'> {
  wait: boolean;
  waitTimeoutMs: number;
}

interface Flags {
  source: string;
  destination: string;
  amount: string;
  currency: string;
  message?: string;
  sourceMessage?: string;
  wait?: boolean;
  waitTimeout?: string;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description('create a transfer (POST /api/v1/transfer); prints the SignableOperation')
    .requiredOption('--source <uri>', 'source account: se://<clearing><account number> or platform://<account id>')
    .requiredOption(
      '--destination <uri>',
      'se://<clearing><account number> (bank transfer), se-bg://<BankGiro> or se-pg://<PlusGiro> (payment)',
    )
    .requiredOption('--amount <decimal>', 'positive amount, sent exactly as written (e.g. 1250.50)')
    .requiredOption('--currency <code>', "ISO 4217 code, the source account's currency")
    .option('--message <text>', 'message to the recipient (destinationMessage; required for payments)')
    .option('--source-message <text>', 'description on the source account')
    .option('--wait', 'follow the operation until EXECUTED, FAILED or CANCELLED (exit 9 unless EXECUTED)')
    .option('--wait-timeout <seconds>', 'give up waiting after this long (default 60)')
    .action(async (o: Flags) => run(ctx, createFromFlags(o)));
  return examples(cmd, [
    'bankctl transfers create --source se://83279234947790 --destination se://33001984 --amount 1250.50 --currency SEK',
    'bankctl transfers create --source platform://a6bb87e57a8c4dd4874b241471a2b9e8 --destination se-bg://5050-1055 --amount 499 --currency SEK --message 1234567890 --wait',
  ]);
}

function createFromFlags(o: Flags): CreateOptions {
  const sp = transferUriProblem(o.source, 'source');
  if (sp) throw new UsageError(`--source: ${sp}`);
  const dp = transferUriProblem(o.destination, 'destination');
  if (dp) throw new UsageError(`--destination: ${dp}`);
  const amount = o.amount.trim();
  if (!/^\d+(\.\d+)?$/.test(amount) || /^0+(\.0+)?$/.test(amount))
    throw new UsageError(`--amount must be a positive decimal number such as 1250.50, got "${o.amount}"`);
  const currency = o.currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new UsageError(`--currency must be an ISO 4217 code such as SEK, got "${o.currency}"`);
  const beyond = beyondMinorUnits(amount, currency, '--amount');
  if (beyond) throw new UsageError(beyond);
  const payment = !o.destination.startsWith('se://');
  if (payment && !o.message)
    throw new UsageError(
      '--message is required for payments to se-bg:// and se-pg:// destinations (the OCR number or message)',
    );
  return {
    sourceUri: o.source,
    destinationUri: o.destination,
    amount,
    currency,
    destinationMessage: o.message,
    sourceMessage: o.sourceMessage,
    wait: Boolean(o.wait),
    waitTimeoutMs: (parseIntArg(o.waitTimeout, '--wait-timeout', { min: 1 }) ?? 60) * 1000,
  };
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  const api = await ctx.api();
  const { wait, waitTimeoutMs, ...request } = o;
  const op = await createTransfer(api, request);
  const final = wait ? await follow(ctx, api, op, waitTimeoutMs) : op;
  await render(ctx, final);
  // the Swagger: a 200 "doesn't mean the transfer is successfully initialized. Check the status
  // field": one that already ended FAILED or CANCELLED is exit 9, with or without --wait
  if (FINAL_OPERATION_STATUSES.includes(final.status) && final.status !== 'EXECUTED')
    throw new FlowFailedError(`transfer ${final.underlyingId} ended ${final.status}: ${final.statusMessage ?? ''}`);
}

/** The first poll's wait; each next one doubles, up to POLL_MAX_MS (a minute's wait is ~35 reads, not 300). */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 2000;

/**
 * Polls the operation to a final status, a notice per change; exit 9 when it takes too long. An
 * AWAITING_* status (the Swagger's AWAITING_CREDENTIALS, AWAITING_THIRD_PARTY_APP_AUTHENTICATION)
 * waits for the person at the bank: its notice says where that is answered.
 */
async function follow(
  ctx: Context,
  api: ApiClient,
  first: SignableOperation,
  timeoutMs: number,
): Promise<SignableOperation> {
  let op = first;
  const started = ctx.clock.now();
  let last: string | undefined;
  let pause = POLL_FIRST_MS;
  const uf = ctx.userFlag();
  for (;;) {
    if (op.status !== last) {
      const waiting = awaitingHint(op, uf);
      ctx.notice(`transfer ${op.underlyingId}: ${(last = op.status)}${waiting ? ` (${waiting})` : ''}`);
    }
    if (FINAL_OPERATION_STATUSES.includes(op.status)) return op;
    if (ctx.clock.now() - started > timeoutMs)
      throw new FlowFailedError(`transfer ${op.underlyingId} is still ${op.status} after ${timeoutMs / 1000} s`, {
        hint: awaitingHint(op, uf) || undefined,
      });
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, POLL_MAX_MS);
    op = await transferStatus(api, op.underlyingId);
  }
}

/** What an AWAITING_* status waits for and where it is answered; "" for any other status. */
function awaitingHint(op: SignableOperation, uf: string): string {
  if (!op.status.startsWith('AWAITING_')) return '';
  const id =
    typeof op.credentialsId === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(op.credentialsId) ? op.credentialsId : '';
  if (!id) return 'the bank waits for the user to sign';
  return `the bank waits for the user to sign on credentials ${id}: \`bankctl credentials supplement${uf} ${id}\` answers its questions, \`bankctl credentials qr${uf} ${id}\` shows a BankID code`;
}
