// Markets of the connector's market list (connector-api.md 2.1) with their default locales.
// Shared by the CLI (validation before sending) and the sandbox.

export const MARKET_DEFAULT_LOCALE: Record<string, string> = {
  AT: 'de_AT',
  AU: 'en_AU',
  BE: 'nl_BE',
  BG: 'bg_BG',
  BR: 'pt_BR',
  CA: 'en_CA',
  CY: 'el_CY',
  CZ: 'cs_CZ',
  DE: 'de_DE',
  DK: 'da_DK',
  EE: 'et_EE',
  ES: 'es_ES',
  FI: 'fi_FI',
  FR: 'fr_FR',
  GB: 'en_GB',
  GR: 'el_GR',
  HR: 'hr_HR',
  HU: 'hu_HU',
  IE: 'en_IE',
  IN: 'en_IN',
  IT: 'it_IT',
  LU: 'fr_LU',
  LV: 'lv_LV',
  MT: 'en_MT',
  MX: 'es_MX',
  NL: 'nl_NL',
  NO: 'nb_NO',
  NZ: 'en_NZ',
  PL: 'pl_PL',
  PT: 'pt_PT',
  RO: 'ro_RO',
  SE: 'sv_SE',
  SG: 'en_SG',
  SI: 'sl_SI',
  SK: 'sk_SK',
  UK: 'en_GB',
  US: 'en_US',
};

export const MARKETS = Object.keys(MARKET_DEFAULT_LOCALE);

/** Locales the service accepts: every market's default, plus English for any market. */
export const LOCALES = [...new Set(['en_US', ...Object.values(MARKET_DEFAULT_LOCALE)])].sort();

export function isMarket(m: string): boolean {
  return Object.hasOwn(MARKET_DEFAULT_LOCALE, m);
}

export function isLocale(l: string): boolean {
  return LOCALES.includes(l);
}

/** The currencies of the markets outside the euro area. */
const OTHER_CURRENCIES: Record<string, string> = {
  AU: 'AUD',
  BG: 'BGN',
  BR: 'BRL',
  CA: 'CAD',
  CZ: 'CZK',
  DK: 'DKK',
  GB: 'GBP',
  UK: 'GBP',
  HU: 'HUF',
  IN: 'INR',
  MX: 'MXN',
  NO: 'NOK',
  NZ: 'NZD',
  PL: 'PLN',
  RO: 'RON',
  SE: 'SEK',
  SG: 'SGD',
  US: 'USD',
};

/** A market's own currency (the spec names none): the euro where the market is not listed. */
export function marketCurrency(market: string): string {
  return Object.hasOwn(OTHER_CURRENCIES, market) ? OTHER_CURRENCIES[market]! : 'EUR';
}

/** Markets whose currency is the euro: every market the table above does not name. */
export const EURO_MARKETS: ReadonlySet<string> = new Set(MARKETS.filter((m) => marketCurrency(m) === 'EUR'));
