// GET /api/v1/loans (spec 4.5, deprecated; shape from the Swagger's LoanResponse): one loan per
// MORTGAGE or LOAN account. Balances keep the account's sign; the interest rate is a fraction
// (3.89 % is 0.0389), taken from the account's payload.interestRate (percent) when it has one.
// Totals are computed exactly.
import { EP } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import type { AccountRecord } from '../store.js';
import { abs, add, dec, mulRatio, toStr, ZERO, type Dec } from '../../contract/decimal.js';
import { num, sendJson, userAccountList } from './read-views.js';

export function ratePercent(a: AccountRecord): Dec {
  const r = a.payload?.interestRate;
  if ((typeof r === 'string' || typeof r === 'number') && /^\d+(\.\d+)?$/.test(String(r))) return dec(String(r));
  return dec(a.type === 'MORTGAGE' ? '3.5' : '6.0');
}

export function registerLoans(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  handle(EP.reads.loans, (req, res) => {
    const user = req.user();
    const accounts = userAccountList(store, user.id).filter(
      (a) => (a.type === 'MORTGAGE' || a.type === 'LOAN') && a.accountExclusion !== 'AGGREGATION',
    );
    let total = ZERO;
    let weight = ZERO;
    let weighted = ZERO;
    const loans = accounts.map((a) => {
      const balance = dec(a.balance);
      const pct = ratePercent(a);
      const interest = { u: pct.u, s: pct.s + 2 };
      total = add(total, balance);
      weight = add(weight, abs(balance));
      weighted = add(weighted, { u: abs(balance).u * interest.u, s: abs(balance).s + interest.s });
      const initial = mulRatio(balance, 5n, 4n, 2);
      return {
        id: a.id.split('').reverse().join(''),
        accountId: a.id,
        userId: a.userId,
        name: a.name,
        type: a.type === 'MORTGAGE' ? 'MORTGAGE' : 'VEHICLE',
        loanNumber: a.accountNumber,
        balance: num(a.balance),
        // not in the Swagger's Loan; added so that amounts can be shown with their currency
        currency: a.currencyCode,
        initialBalance: num(toStr(initial)),
        amortized: num(toStr(abs(add(initial, { u: -balance.u, s: balance.s })))),
        interest: num(toStr(interest)),
        numMonthsBound: a.type === 'MORTGAGE' ? 3 : 12,
        monthlyAmortization: num(toStr(mulRatio(abs(balance), 1n, 240n, 2))),
        initialDate: new Date(a.created - 3 * 365 * 86_400_000).toISOString().slice(0, 10),
        nextDayOfTermsChange: new Date(a.created + 90 * 86_400_000).toISOString().slice(0, 10),
        updated: new Date(a.updated).toISOString(),
        providerName: null,
        userModifiedType: false,
        loanDetails: {
          accountId: a.id,
          coApplicant: false,
          applicants: a.holderName ? [a.holderName] : [],
          loanSecurity: a.type === 'MORTGAGE' ? 'REAL_ESTATE' : 'VEHICLE',
        },
      };
    });
    const avg = weight.u === 0n ? ZERO : mulRatio(weighted, 10n ** BigInt(weight.s), weight.u, 6);
    sendJson(res, 200, { loans, totalLoanAmount: num(toStr(total)), weightedAverageInterestRate: num(toStr(avg)) });
  });
}
