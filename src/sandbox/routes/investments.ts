// GET /api/v1/investments (spec 4.5, deprecated; shape from the Swagger's Investment): one portfolio
// per INVESTMENT or PENSION account, filtered by the repeated portfolioType. Instruments are derived
// from the account id, and their market values plus the cash add up exactly to the account balance.
import { EP } from '../../contract/index.js';
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import type { AccountRecord } from '../store.js';
import { badRequest } from '../http.js';
import { dec, mulRatio, sub, toStr } from '../../contract/decimal.js';
import { listParam, num, sendJson, userAccountList } from './read-views.js';

export const PORTFOLIO_TYPES = ['ISK', 'KF', 'DEPOT', 'PENSION', 'OTHER'];

const CATALOGUE = [
  { name: 'Global Index Fund A', isin: 'SE0000000001', type: 'FUND', marketPlace: 'SEB', ticker: '', price: '312.45' },
  { name: 'Nordic Tech AB', isin: 'SE0000000019', type: 'STOCK', marketPlace: 'XSTO', ticker: 'NTEC', price: '87.10' },
  { name: 'Sweden Bond Fund', isin: 'SE0000000027', type: 'FUND', marketPlace: 'SEB', ticker: '', price: '104.02' },
  { name: 'Green Energy ASA', isin: 'NO0000000035', type: 'STOCK', marketPlace: 'XOSL', ticker: 'GEN', price: '45.9' },
];

export function portfolioTypeOf(a: AccountRecord): string {
  if (a.portfolioType && PORTFOLIO_TYPES.includes(a.portfolioType)) return a.portfolioType;
  return a.type === 'PENSION' ? 'PENSION' : 'OTHER';
}

export function registerInvestments(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  handle(EP.reads.investments, (req, res) => {
    const user = req.user();
    const wanted = listParam(req.query, 'portfolioType').map((t) => t.toUpperCase());
    for (const t of wanted)
      if (!PORTFOLIO_TYPES.includes(t))
        throw badRequest(`portfolioType: unknown type "${t.slice(0, 20)}" (${PORTFOLIO_TYPES.join(', ')})`, {
          field: 'portfolioType',
        });
    const portfolios = userAccountList(store, user.id)
      .filter((a) => (a.type === 'INVESTMENT' || a.type === 'PENSION') && a.accountExclusion !== 'AGGREGATION')
      .filter((a) => wanted.length === 0 || wanted.includes(portfolioTypeOf(a)))
      .map((a) => portfolio(a));
    sendJson(res, 200, { portfolios });
  });
}

export function portfolio(a: AccountRecord): Record<string, unknown> {
  const h = createHash('sha256').update(`portfolio:${a.id}`).digest();
  const id = h.toString('hex').slice(0, 32);
  const total = dec(a.balance);
  const cash = mulRatio(total, 5n, 100n, 2);
  let rest = sub(total, cash);
  const picks = [CATALOGUE[h[0]! % 2]!, CATALOGUE[2 + (h[1]! % 2)]!];
  const instruments = picks.map((c, i) => {
    const value = i === picks.length - 1 ? rest : mulRatio(sub(total, cash), 60n, 100n, 2);
    if (i < picks.length - 1) rest = sub(rest, value);
    const quantity = value.u === 0n ? dec('0') : divide(value, dec(c.price));
    const profit = mulRatio(value, 8n, 100n, 2);
    const avg = divide(sub(value, profit), quantity.u === 0n ? dec('1') : quantity);
    return {
      id: createHash('sha256').update(`instrument:${a.id}:${c.isin}`).digest('hex').slice(0, 32),
      portfolioId: id,
      userId: a.userId,
      name: c.name,
      isin: c.isin,
      ticker: c.ticker,
      marketPlace: c.marketPlace,
      type: c.type,
      currency: a.currencyCode,
      price: num(c.price),
      quantity: num(toStr(quantity)),
      marketValue: num(toStr(value)),
      averageAcquisitionPrice: num(toStr(avg)),
      profit: num(toStr(profit)),
    };
  });
  return {
    id,
    accountId: a.id,
    userId: a.userId,
    type: portfolioTypeOf(a),
    totalValue: num(a.balance),
    cashValue: num(toStr(cash)),
    totalProfit: num(toStr(mulRatio(sub(total, cash), 8n, 100n, 2))),
    instruments,
  };
}

/** a / b rounded half-even to 4 decimals. */
function divide(a: ReturnType<typeof dec>, b: ReturnType<typeof dec>): ReturnType<typeof dec> {
  // a.u/10^a.s / (b.u/10^b.s) = a.u * 10^b.s / (b.u * 10^a.s)
  return mulRatio(a, 10n ** BigInt(b.s), b.u, 4);
}
