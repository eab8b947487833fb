// `sandbox transactions add`: new transactions on a bank-connected account, as a refresh would
// bring them (categories, the balance moved exactly, transaction events, /data/v2/transactions).
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { render } from '../../../output/render.js';
import { examples, parseIntArg, type Run } from '../../util.js';
import { readInput, sandboxApi } from '../shared.js';

export interface AddOptions {
  user: string;
  accountId: string;
  count?: number;
  from?: string;
  to?: string;
  amountMin?: string;
  amountMax?: string;
  pending: boolean;
  seed?: string;
  /** From --file: the transactions, amounts as exact decimal strings. */
  transactions?: Array<Record<string, unknown>>;
}

interface Flags {
  account?: string;
  count?: string;
  from?: string;
  to?: string;
  amountRange?: string;
  pending?: boolean;
  seed?: string;
  file?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^[+-]?\d{1,15}(\.\d{1,4})?$/;

/** The --file document: a list of transactions, or {transactions: [...]}; numbers kept exact. */
async function readFile(ctx: Context, file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readInput(ctx, file, '--file');
  const { readJson, ExactNumber } = await import('../../../contract/exact-json.js');
  let doc: unknown;
  try {
    doc = readJson(text);
  } catch (err) {
    throw new UsageError(`--file: ${file} is not JSON: ${(err as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { transactions?: unknown } | null)?.transactions;
  if (!Array.isArray(list) || list.length === 0)
    throw new UsageError(`--file: ${file} must hold a list of transactions (or {"transactions": [...]})`);
  return list.map((t, i) => {
    if (!t || typeof t !== 'object' || Array.isArray(t))
      throw new UsageError(`--file: ${file}#/${i} must be an object`);
    const o = { ...(t as Record<string, unknown>) };
    if (o.amount instanceof ExactNumber || typeof o.amount === 'number') o.amount = String(o.amount);
    return o;
  });
}

export function newCmdAdd(parent: Command, ctx: Context, run: Run<AddOptions> = addRun): Command {
  const cmd = parent
    .command('add')
    .description(
      'add transactions to a bank-connected account of the --user (sandbox only): generated with --count, or listed in --file; prints the new ids',
    )
    .option('--account <id>', 'the account (a bank-connected one, not a connector account)')
    .option('--count <n>', 'generate this many transactions (1 to 1000)')
    .option('--from <date>', 'generated dates from (YYYY-MM-DD, with --to; default: the last 30 days)')
    .option('--to <date>', 'generated dates to (YYYY-MM-DD)')
    .option('--amount-range <min..max>', 'generated amounts, exact decimals (default -500.00..-5.00)')
    .option('--pending', 'generated transactions are PENDING')
    .option('--seed <text>', 'the same seed generates the same transactions')
    .option(
      '--file <file>',
      'JSON list of {amount, date, description?, pending?, category?} (amount as a string, e.g. "-12.50"); - for stdin',
    )
    .action(async (o: Flags) => {
      const ref = await ctx.userRef();
      const user = ref?.userId ?? ref?.externalUserId;
      if (!user) throw new UsageError('which user? pass --user ID (or --external-user ID)');
      if (!o.account)
        throw new UsageError('--account is required', { hint: 'list them with `bankctl accounts list --user ID`' });
      if ((o.count === undefined) === (o.file === undefined)) throw new UsageError('give either --count N or --file F');
      if (o.file && (o.from || o.to || o.amountRange || o.pending || o.seed))
        throw new UsageError('--from, --to, --amount-range, --pending and --seed go with --count, not --file');
      if ((o.from === undefined) !== (o.to === undefined)) throw new UsageError('give --from and --to together');
      for (const [flag, v] of [
        ['--from', o.from],
        ['--to', o.to],
      ] as const)
        if (v !== undefined && (!DAY.test(v) || Number.isNaN(Date.parse(v))))
          throw new UsageError(`${flag} must be a date YYYY-MM-DD, got "${v}"`);
      if (o.from && o.to && o.from > o.to) throw new UsageError(`--from ${o.from} is after --to ${o.to}`);
      let amountMin: string | undefined;
      let amountMax: string | undefined;
      if (o.amountRange !== undefined) {
        const m = /^([^.]+(?:\.\d+)?)\.\.(.+)$/.exec(o.amountRange.trim());
        if (!m || !AMOUNT.test(m[1]!) || !AMOUNT.test(m[2]!))
          throw new UsageError(
            `--amount-range must be MIN..MAX with exact decimals, e.g. -250.00..-5.00, got "${o.amountRange}"`,
          );
        [amountMin, amountMax] = [m[1]!, m[2]!];
        const { dec, cmp } = await import('../../../contract/decimal.js');
        if (cmp(dec(amountMin), dec(amountMax)) > 0) throw new UsageError('--amount-range: MIN must not be above MAX');
      }
      await run(ctx, {
        user,
        accountId: o.account,
        count: parseIntArg(o.count, '--count', { min: 1, max: 1000 }),
        from: o.from,
        to: o.to,
        amountMin,
        amountMax,
        pending: Boolean(o.pending),
        seed: o.seed,
        transactions: o.file ? await readFile(ctx, o.file) : undefined,
      });
    });
  return examples(cmd, [
    'bankctl sandbox transactions add --user $USER_ID --account $ACCOUNT_ID --count 20',
    'bankctl sandbox transactions add --user $USER_ID --account $ACCOUNT_ID --count 5 --from 2026-01-01 --to 2026-01-31 --amount-range -99.90..-10.00 --pending',
    'echo \'[{"amount": "-12.50", "date": "2026-02-01", "description": "Coffee", "category": "expenses:food.coffee"}]\' | bankctl sandbox transactions add --user $USER_ID --account $ACCOUNT_ID --file -',
  ]);
}

export async function addRun(ctx: Context, o: AddOptions): Promise<void> {
  const api = await sandboxApi(ctx, '`sandbox transactions add`');
  const { addSandboxTransactions } = await import('../../../api/sandbox.js');
  const body = o.transactions
    ? { userId: o.user, accountId: o.accountId, transactions: o.transactions }
    : {
        userId: o.user,
        accountId: o.accountId,
        count: o.count,
        from: o.from,
        to: o.to,
        amountMin: o.amountMin,
        amountMax: o.amountMax,
        pending: o.pending || undefined,
        seed: o.seed,
      };
  const r = await addSandboxTransactions(api, body);
  ctx.notice(
    `added ${r.ids.length} transaction${r.ids.length === 1 ? '' : 's'} to account ${r.accountId}; balance now ${r.balance}`,
  );
  const format = await ctx.outputFormat();
  if (format === 'json') {
    await render(ctx, r);
    return;
  }
  await render(
    ctx,
    r.ids.map((id) => ({ id })),
    { columns: [{ header: 'id', path: 'id' }] },
  );
}
