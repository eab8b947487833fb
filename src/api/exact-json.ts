// JSON with money kept exact. v1 endpoints send amounts as JSON numbers (balance, price, interest...);
// JSON.parse would put them through a double, so these keys' number literals are turned into strings
// holding the literal text before parsing. v2 amounts are strings already and pass unchanged.

export const MONEY_KEYS = [
  'balance',
  'unscaledValue',
  'availableCredit',
  'reservedAmount',
  'amount',
  'totalValue',
  'cashValue',
  'totalProfit',
  'price',
  'quantity',
  'marketValue',
  'averageAcquisitionPrice',
  'profit',
  'initialBalance',
  'amortized',
  'interest',
  'monthlyAmortization',
  'totalLoanAmount',
  'weightedAverageInterestRate',
];

const LITERAL = new RegExp(
  `"(${MONEY_KEYS.join('|')})"(\\s*):(\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)(?=\\s*[,}\\]])`,
  'g',
);

/** JSON.parse, except that the money keys' number literals arrive as exact decimal strings. */
export function parseExactJson<T = unknown>(text: string): T {
  return JSON.parse(text.replace(LITERAL, '"$1"$2:$3"$4"')) as T;
}
