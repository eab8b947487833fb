// `consents v2 create`: a consent for one of the app's users at a provider (POST /connectivity/v2/consents,
// client token, consents; Beta). The VRP parameters come from flags, or whole from --parameters FILE.
import { renderOne } from '../../accounts/v2-cells.js';
import type { Command } from 'commander';
import { completeOption } from '../../completion.js';
import type { Context } from '../../../context.js';
import { CONSENT_SUBTYPES, createConsent, PERIOD_TYPES } from '../../../api/consents-v2.js';
import { parseDecimal } from '../../../contract/decimal.js';
import { ExactNumber, readJson } from '../../../contract/exact-json.js';
import { UsageError } from '../../../errors.js';
import { inputReadError, readInputFile, readStreamText } from '../../../fs/read-input.js';
import { beyondMinorUnits } from '../../../output/money.js';
import { collect, examples, type Run } from '../../util.js';
import { CONSENT_VIEW } from './shared.js';

export interface CreateOptions {
  body: Record<string, unknown>;
  idempotencyKey?: string;
}

interface Flags {
  provider?: string;
  forUser?: string;
  subtype: string;
  currency?: string;
  maxAmount?: string;
  limit?: string[];
  payeeName?: string;
  payeeNumber?: string;
  payerName?: string;
  payerNumber?: string;
  merchantId?: string;
  reference?: string;
  remittanceText?: string;
  validFrom?: string;
  validTo?: string;
  parameters?: string;
  idempotencyKey?: string;
}

/**
 * --valid-from/--valid-to as the template's schema declares them (yyyy-MM-dd'T'HH:mm:ss.SSS'Z'): a
 * date alone is the start (from) or the last millisecond (to) of that day in UTC, whole seconds get
 * their .000; anything else, or a day that is not in the calendar, is exit 2.
 */
function validity(text: string, flag: string, endOfDay: boolean): string {
  const t = text.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(\.\d{3})?Z)?$/.exec(t);
  const iso = !m
    ? ''
    : m[4] === undefined
      ? `${t}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`
      : `${t.slice(0, 19)}${m[7] ?? '.000'}Z`;
  if (!m || Number.isNaN(Date.parse(iso)) || new Date(iso).toISOString() !== iso)
    throw new UsageError(
      `${flag} must be a UTC time like 2026-01-01T00:00:00.000Z or a date like 2026-01-01, got "${t}"`,
    );
  return iso;
}

/** The template's limit on payeeAccount.name and payerAccount.holderName (maxLength, in characters). */
const ACCOUNT_NAME_MAX = 35;

/**
 * An account's name as the template's schema allows it (1 to 35 characters, as JSON Schema counts
 * them: code points): the service's 400 came only after the network round trip.
 */
function accountName(name: string, flag: string, field: string): void {
  const n = [...name].length;
  if (n < 1 || n > ACCOUNT_NAME_MAX)
    throw new UsageError(`${flag} must be 1 to ${ACCOUNT_NAME_MAX} characters (the template's ${field}), got ${n}`);
}

/** "12.50" in a currency as the reference's CurrencyDenominatedAmount (integer scale and unscaledValue). */
function amount(text: string, currency: string, flag: string): Record<string, unknown> {
  let d: { unscaledValue: bigint; scale: number };
  try {
    d = parseDecimal(text);
  } catch {
    throw new UsageError(`${flag} must be a decimal amount like 12.50, got "${text}"`);
  }
  if (d.unscaledValue <= 0n || d.scale < 0) throw new UsageError(`${flag} must be more than 0, got "${text}"`);
  // the reference's unscaledValue is an int64 (every 18-digit value fits): more digits were the
  // service's 400 about a "whole number"
  if (d.unscaledValue.toString().length > 18)
    throw new UsageError(`${flag} ${text} has too many digits (at most 18, decimals included)`);
  const beyond = beyondMinorUnits(text.trim(), currency, flag);
  if (beyond) throw new UsageError(beyond);
  return { currency, value: { scale: d.scale, unscaledValue: new ExactNumber(d.unscaledValue.toString()) } };
}

/** --parameters: standard input for "-", else the file (a named pipe waits for its writer, Ctrl-C still ends it). */
async function parametersText(ctx: Context, file: string): Promise<string> {
  try {
    return await (file === '-' ? readStreamText(ctx.io.stdin) : readInputFile(file));
  } catch (err) {
    throw inputReadError(err, file === '-' ? 'stdin' : file, '--parameters');
  }
}

/** The flags that make financialServiceParameters, which --parameters FILE gives whole instead. */
const VRP_FLAGS: ReadonlyArray<readonly [keyof Flags, string]> = [
  ['currency', '--currency'],
  ['maxAmount', '--max-amount'],
  ['limit', '--limit'],
  ['payeeName', '--payee-name'],
  ['payeeNumber', '--payee-number'],
  ['payerName', '--payer-name'],
  ['payerNumber', '--payer-number'],
  ['merchantId', '--merchant-id'],
  ['reference', '--reference'],
  ['remittanceText', '--remittance-text'],
  ['validFrom', '--valid-from'],
  ['validTo', '--valid-to'],
];

export async function bodyFromFlags(ctx: Context, o: Flags): Promise<Record<string, unknown>> {
  if (!o.provider) throw new UsageError('--provider is required');
  if (!o.forUser) throw new UsageError('--for-user is required (the user id the consent is for)');
  const subtype = o.subtype.toUpperCase();
  if (!(CONSENT_SUBTYPES as readonly string[]).includes(subtype))
    throw new UsageError(`--subtype must be one of ${CONSENT_SUBTYPES.join(', ')}, got "${o.subtype}"`);
  let financialServiceParameters: unknown;
  if (o.parameters !== undefined) {
    // the file is financialServiceParameters whole: a flag beside it was dropped without a word, exit 0
    const ignored = VRP_FLAGS.filter(([key]) => o[key] !== undefined).map(([, flag]) => flag);
    if (ignored.length > 0)
      throw new UsageError(
        `--parameters gives financialServiceParameters whole: ${ignored.join(', ')} would be ignored`,
        { hint: 'put them in the file, or leave --parameters out and give the parameters as flags' },
      );
    if (o.parameters === '') throw new UsageError('--parameters needs a file ("-" for stdin)');
    const text = await parametersText(ctx, o.parameters);
    try {
      financialServiceParameters = readJson(text);
    } catch (e) {
      throw new UsageError(`--parameters: ${(e as Error).message.split('\n')[0]}`);
    }
  } else {
    const currency = (o.currency ?? '').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw new UsageError('--currency is required: an ISO 4217 code such as GBP');
    if (!o.maxAmount) throw new UsageError('--max-amount is required (or give --parameters FILE)');
    if (!o.limit || o.limit.length === 0) throw new UsageError('--limit PERIOD=AMOUNT is required at least once');
    if (!o.payeeName || !o.payeeNumber) throw new UsageError('--payee-name and --payee-number are required');
    accountName(o.payeeName, '--payee-name', 'payeeAccount.name');
    if (o.payerName !== undefined) accountName(o.payerName, '--payer-name', 'payerAccount.holderName');
    // one without the other was left out of the consent, exit 0: a mandate from any account
    if ((o.payerName === undefined) !== (o.payerNumber === undefined) || o.payerNumber === '')
      throw new UsageError('--payer-name and --payer-number go together (payerAccount needs both)');
    const periodicLimits = o.limit.map((l) => {
      const m = /^([A-Za-z_]+)=(.+)$/.exec(l);
      const period = m?.[1]?.toUpperCase() ?? '';
      if (!m || !(PERIOD_TYPES as readonly string[]).includes(period))
        throw new UsageError(`--limit must be PERIOD=AMOUNT with PERIOD one of ${PERIOD_TYPES.join(', ')}, got "${l}"`);
      return { amount: amount(m[2]!, currency, '--limit'), periodAlignment: 'MANDATE', periodType: period };
    });
    const controlParameters: Record<string, unknown> = {
      maximumIndividualAmount: amount(o.maxAmount, currency, '--max-amount'),
      periodicLimits,
    };
    const from = o.validFrom === undefined ? undefined : validity(o.validFrom, '--valid-from', false);
    const to = o.validTo === undefined ? undefined : validity(o.validTo, '--valid-to', true);
    if (from !== undefined && to !== undefined && from > to)
      throw new UsageError(`--valid-from ${from} is after --valid-to ${to}`);
    if (from !== undefined) controlParameters.validFrom = from;
    if (to !== undefined) controlParameters.validTo = to;
    const userParameters: Record<string, unknown> = {
      controlParameters,
      payeeAccount: { name: o.payeeName, number: o.payeeNumber, type: 'SORT_CODE' },
    };
    if (o.payerName !== undefined && o.payerNumber !== undefined)
      userParameters.payerAccount = { holderName: o.payerName, number: o.payerNumber, type: 'SORT_CODE' };
    if (o.merchantId) userParameters.merchantId = o.merchantId;
    if (o.remittanceText !== undefined && o.reference === undefined)
      throw new UsageError('--remittance-text needs --reference (the reference requires it in remittanceInformation)');
    if (o.reference !== undefined) {
      // counted as JSON Schema's maxLength counts (code points), as the account names are: 18 emoji pass
      const ref = [...o.reference].length;
      if (ref < 1 || ref > 18) throw new UsageError(`--reference must be 1 to 18 characters, got ${ref}`);
      const text = o.remittanceText === undefined ? undefined : [...o.remittanceText].length;
      if (text !== undefined && (text < 1 || text > 140))
        throw new UsageError(`--remittance-text must be 1 to 140 characters, got ${text}`);
      userParameters.remittanceInformation = {
        reference: o.reference,
        ...(o.remittanceText !== undefined ? { unstructured: o.remittanceText } : {}),
      };
    }
    financialServiceParameters = { userParameters, version: '1.0.0' };
  }
  return {
    financialService: { subtype, type: 'MANDATE_PAYMENTS' },
    financialServiceParameters,
    providerId: o.provider,
    userId: o.forUser,
  };
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description('create a consent (POST /connectivity/v2/consents, client token, consents; Beta)')
    .option('--provider <name>', "the provider, by name (the reference's providerId, e.g. se-nordea-ob)")
    .option('--for-user <id>', 'the user the consent is for (userId)')
    .option('--subtype <subtype>', `mandate subtype: ${CONSENT_SUBTYPES.join(', ')}`, 'VRP_SWEEPING')
    .option('--currency <code>', 'currency of the amounts (ISO 4217)')
    .option('--max-amount <amount>', 'largest single payment, e.g. 100.00')
    .option('--limit <period=amount>', `a periodic limit, repeatable (${PERIOD_TYPES.join(', ')})`, collect)
    .option('--payee-name <name>', "the payee account's name (1 to 35 characters)")
    .option('--payee-number <number>', "the payee account's sort code and number")
    .option('--payer-name <name>', "the payer account's holder (1 to 35 characters)")
    .option('--payer-number <number>', "the payer account's sort code and number")
    .option('--merchant-id <id>', 'the merchant of the mandate')
    .option('--reference <text>', "remittanceInformation.reference, the payments' reference (1 to 18 characters)")
    .option('--remittance-text <text>', 'remittanceInformation.unstructured (1 to 140 characters; with --reference)')
    .option('--valid-from <time>', 'start of validity, e.g. 2026-01-01T00:00:00.000Z')
    .option('--valid-to <time>', 'end of validity')
    .option(
      '--parameters <file>',
      'financialServiceParameters as JSON from a file ("-" for stdin), instead of the flags (not with them)',
    )
    .option('--idempotency-key <key>', 'the Idempotency-Key to send (default: a new random one)')
    .action(async (o: Flags) => run(ctx, { body: await bodyFromFlags(ctx, o), idempotencyKey: o.idempotencyKey }));
  completeOption(cmd, '--subtype', () => CONSENT_SUBTYPES);
  return examples(cmd, [
    'bankctl consents v2 create --provider uk-ob-barclays --for-user $USER_ID --currency GBP --max-amount 100 --limit MONTH=500 --payee-name Savings --payee-number 10000031510604 --reference SWEEP-2026',
    'bankctl consents v2 create --provider uk-ob-barclays --for-user $USER_ID --parameters params.json -o json',
  ]);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  const consent = await createConsent(await ctx.api(), o.body, o.idempotencyKey);
  await renderOne(ctx, consent, CONSENT_VIEW);
}
