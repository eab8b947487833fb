// The sandbox's providers (spec 2.2): every test provider of the spec's table, the
// `<market>-test-password` and `<market>-test-multi-supplemental` variants for every market of the
// connector's list, and a handful of realistic banks per market. Each names the flow it runs.
import { EURO_MARKETS, MARKETS, marketCurrency } from '../../contract/markets.js';
import type { ProviderField as WireProviderField } from '../../contract/wire.js';
import { PERSONAL_NUMBER_HELP } from './identities.js';

export type FlowKind =
  'password' | 'embedded' | 'multi-supplemental' | 'eid' | 'third-party' | 'redirect' | 'decoupled';

export type Failure = 'cancelled' | 'inprogress' | 'timeout' | 'always';

/** A field of the catalogue: the wire's ProviderField with its flags always present. */
export type ProviderField = WireProviderField &
  Required<
    Pick<
      WireProviderField,
      'description' | 'optional' | 'exposed' | 'immutable' | 'masked' | 'numeric' | 'sensitive' | 'checkbox'
    >
  >;

export interface ProviderDef {
  name: string;
  displayName: string;
  displayDescription: string;
  type: 'TEST' | 'BANK';
  status: 'ENABLED';
  credentialsType: 'PASSWORD' | 'MOBILE_BANKID' | 'THIRD_PARTY_APP' | 'KEYFOB';
  accessType: 'OPEN_BANKING' | 'OTHER';
  authenticationFlow?: 'EMBEDDED' | 'REDIRECT' | 'DECOUPLED';
  currency: string;
  market: string;
  capabilities: string[];
  fields: ProviderField[];
  financialInstitutionId: string;
  financialInstitutionName: string;
  groupDisplayName: string;
  multiFactor: boolean;
  passwordHelpText: string;
  popular: boolean;
  transactional: boolean;
  images: { icon: string; banner: string | null };
  /** Sandbox only (not on the wire): the flow script and how it fails. */
  flow: FlowKind;
  failure?: Failure;
}

const ALL_CAPS = ['CHECKING_ACCOUNTS', 'SAVINGS_ACCOUNTS', 'CREDIT_CARDS', 'INVESTMENTS', 'LOANS', 'IDENTITY_DATA'];

function field(name: string, description: string, extra: Partial<ProviderField> = {}): ProviderField {
  return {
    name,
    description,
    optional: false,
    exposed: true,
    immutable: false,
    masked: false,
    numeric: false,
    sensitive: false,
    checkbox: false,
    ...extra,
  };
}
const USERNAME = field('username', 'Username', {
  helpText: 'In the sandbox, test-user succeeds; fail... and temp... fail.',
  maxLength: 64,
});
const PASSWORD = field('password', 'Password', {
  masked: true,
  sensitive: true,
  exposed: false,
  helpText: 'In the sandbox the password is test-password.',
});
const PERSONAL_NUMBER = field('username', 'Personal identity number', {
  hint: 'YYYYMMDDNNNN',
  pattern: '(19|20)[0-9]{10}',
  patternError: 'Enter your 12-digit personal identity number.',
  helpText: PERSONAL_NUMBER_HELP,
  numeric: true,
  minLength: 12,
  maxLength: 12,
});

/** A stable dashless id from a name. */
function fiId(name: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const out: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${round}:${name}`) {
      h1 = Math.imul(h1 ^ ch.charCodeAt(0), 16777619) >>> 0;
      h2 = Math.imul(h2 + ch.charCodeAt(0), 2246822519) >>> 0;
    }
    out.push(((h1 ^ h2) >>> 0).toString(16).padStart(8, '0'));
  }
  return out.join('');
}

interface Spec {
  name: string;
  displayName: string;
  market: string;
  type: 'TEST' | 'BANK';
  flow: FlowKind;
  failure?: Failure;
  institution: string;
  description?: string;
  popular?: boolean;
}

function make(s: Spec): ProviderDef {
  const cred: ProviderDef['credentialsType'] =
    s.flow === 'eid'
      ? 'MOBILE_BANKID'
      : s.flow === 'third-party' || s.flow === 'redirect' || s.flow === 'decoupled'
        ? 'THIRD_PARTY_APP'
        : 'PASSWORD';
  const openBanking =
    s.name.includes('open-banking') ||
    s.flow === 'redirect' ||
    s.flow === 'decoupled' ||
    s.flow === 'embedded' ||
    (s.type === 'BANK' && s.flow !== 'eid');
  const fields =
    s.flow === 'password' || s.flow === 'embedded'
      ? [USERNAME, PASSWORD]
      : s.type === 'BANK' && s.flow === 'eid'
        ? [PERSONAL_NUMBER]
        : [USERNAME];
  const description =
    s.description ??
    {
      password: 'Username and password',
      embedded: 'Username, password and a one-time code',
      'multi-supplemental': 'Two one-time codes',
      eid: 'Mobile BankID',
      'third-party': 'Authentication app',
      redirect: "The bank's own login page",
      decoupled: "Confirm in the bank's app",
    }[s.flow];
  return {
    name: s.name,
    displayName: s.displayName,
    displayDescription: description,
    type: s.type,
    status: 'ENABLED',
    credentialsType: cred,
    accessType: openBanking ? 'OPEN_BANKING' : 'OTHER',
    ...(openBanking
      ? {
          authenticationFlow:
            s.flow === 'redirect'
              ? 'REDIRECT'
              : s.flow === 'decoupled' || s.flow === 'third-party'
                ? 'DECOUPLED'
                : 'EMBEDDED',
        }
      : {}),
    currency: marketCurrency(s.market),
    market: s.market,
    capabilities:
      s.type === 'TEST'
        ? [...ALL_CAPS]
        : [
            'CHECKING_ACCOUNTS',
            'SAVINGS_ACCOUNTS',
            'CREDIT_CARDS',
            ...(s.popular ? ['INVESTMENTS', 'LOANS', 'PAYMENTS'] : []),
          ],
    fields,
    financialInstitutionId: fiId(s.institution),
    financialInstitutionName: s.institution,
    groupDisplayName: s.institution,
    multiFactor: s.flow !== 'password',
    passwordHelpText:
      s.flow === 'password' || s.flow === 'embedded' ? 'Use the same password as in your bank’s internet bank.' : '',
    popular: s.popular ?? false,
    transactional: true,
    images: { icon: `https://cdn.sandbox.invalid/providers/${s.name}.png`, banner: null },
    flow: s.flow,
    ...(s.failure ? { failure: s.failure } : {}),
  };
}

function testProviders(): ProviderDef[] {
  const t = (name: string, displayName: string, flow: FlowKind, failure?: Failure): Spec => ({
    name,
    displayName,
    market: 'SE',
    type: 'TEST',
    flow,
    failure,
    institution: 'Test Bank SE',
  });
  const se: Spec[] = [
    t('se-test-open-banking-embedded', 'Test Open Banking (embedded)', 'embedded'),
    t('se-test-open-banking-decoupled-successful', 'Test Open Banking (decoupled)', 'decoupled'),
    t('se-test-open-banking-redirect', 'Test Open Banking (redirect)', 'redirect'),
    t('se-test-other-password', 'Test Password', 'password'),
    t('se-test-other-eid-successful', 'Test BankID (successful)', 'eid'),
    t('se-test-other-eid-failing-cancelled', 'Test BankID (cancelled)', 'eid', 'cancelled'),
    t('se-test-other-eid-failing-inprogress', 'Test BankID (in progress)', 'eid', 'inprogress'),
    t('se-test-other-eid-failing-timeout', 'Test BankID (timeout)', 'eid', 'timeout'),
    t('se-test-other-multi-supplemental', 'Test Multi-Supplemental', 'multi-supplemental'),
    t('se-test-other-third-party-app-successful', 'Test Third-Party App (successful)', 'third-party'),
    t(
      'se-test-other-third-party-app-failing-cancelled',
      'Test Third-Party App (cancelled)',
      'third-party',
      'cancelled',
    ),
    t(
      'se-test-other-third-party-app-failing-inprogress',
      'Test Third-Party App (in progress)',
      'third-party',
      'inprogress',
    ),
    t('se-test-other-third-party-app-failing-timeout', 'Test Third-Party App (timeout)', 'third-party', 'timeout'),
    t('se-test-eid-successful', 'Test BankID', 'eid'),
    t('se-test-eid-failing', 'Test BankID (failing)', 'eid', 'always'),
  ];
  for (const m of MARKETS) {
    const lower = m.toLowerCase();
    se.push({
      name: `${lower}-test-password`,
      displayName: `Test Password (${m})`,
      market: m,
      type: 'TEST',
      flow: 'password',
      institution: `Test Bank ${m}`,
    });
    se.push({
      name: `${lower}-test-multi-supplemental`,
      displayName: `Test Multi-Supplemental (${m})`,
      market: m,
      type: 'TEST',
      flow: 'multi-supplemental',
      institution: `Test Bank ${m}`,
    });
  }
  return se.map(make);
}

// Realistic banks: a handful where we know the market, two generic ones elsewhere.
const BANKS: Record<string, Array<[string, string, FlowKind, boolean?]>> = {
  SE: [
    ['se-handelsbanken-bankid', 'Handelsbanken', 'eid', true],
    ['se-swedbank-bankid', 'Swedbank', 'eid', true],
    ['se-seb-bankid', 'SEB', 'eid', true],
    ['se-nordea-ob', 'Nordea', 'redirect', true],
    ['se-lansforsakringar-ob', 'Länsförsäkringar', 'decoupled'],
  ],
  GB: [
    ['uk-ob-barclays', 'Barclays', 'redirect', true],
    ['uk-ob-hsbc', 'HSBC UK', 'redirect', true],
    ['uk-ob-monzo', 'Monzo', 'redirect'],
    ['uk-ob-lloyds', 'Lloyds Bank', 'redirect', true],
  ],
  DE: [
    ['de-ob-deutsche-bank', 'Deutsche Bank', 'redirect', true],
    ['de-ob-sparkasse', 'Sparkasse', 'embedded', true],
    ['de-ob-commerzbank', 'Commerzbank', 'decoupled'],
  ],
  NO: [
    ['no-dnb-bankid', 'DNB', 'redirect', true],
    ['no-sparebank1-ob', 'SpareBank 1', 'redirect'],
  ],
  DK: [
    ['dk-danske-bank-ob', 'Danske Bank', 'redirect', true],
    ['dk-nykredit-ob', 'Nykredit', 'redirect'],
  ],
  FI: [
    ['fi-nordea-ob', 'Nordea Finland', 'redirect', true],
    ['fi-op-ob', 'OP Financial Group', 'redirect', true],
  ],
  NL: [
    ['nl-ing-ob', 'ING', 'redirect', true],
    ['nl-abnamro-ob', 'ABN AMRO', 'redirect', true],
  ],
  FR: [
    ['fr-bnp-paribas-ob', 'BNP Paribas', 'redirect', true],
    ['fr-credit-agricole-ob', 'Crédit Agricole', 'redirect'],
  ],
  ES: [
    ['es-santander-ob', 'Santander', 'redirect', true],
    ['es-bbva-ob', 'BBVA', 'redirect', true],
  ],
  IT: [
    ['it-intesa-sanpaolo-ob', 'Intesa Sanpaolo', 'redirect', true],
    ['it-unicredit-ob', 'UniCredit', 'redirect'],
  ],
};

function bankProviders(): ProviderDef[] {
  const out: ProviderDef[] = [];
  for (const m of MARKETS) {
    const key = m === 'UK' ? 'GB' : m;
    const list = BANKS[key] ?? [
      [`${m.toLowerCase()}-ob-national-bank`, `National Bank ${m}`, 'redirect', true],
      [`${m.toLowerCase()}-ob-savings-bank`, `Savings Bank ${m}`, 'redirect'],
    ];
    for (const [name, displayName, flow, popular] of list) {
      // UK and GB share the British banks; the UK market's names carry a -uk suffix to stay unique
      const n = m === 'UK' ? `${name}-uk` : name;
      out.push(make({ name: n, displayName, market: m, type: 'BANK', flow, institution: displayName, popular }));
    }
  }
  return out;
}

export const PROVIDERS: readonly ProviderDef[] = Object.freeze([...testProviders(), ...bankProviders()]);
const BY_NAME = new Map(PROVIDERS.map((p) => [p.name, p]));

export function providerByName(name: string): ProviderDef | undefined {
  return BY_NAME.get(name);
}

/**
 * A provider as GET /api/v1/providers shows it, the sandbox-only keys (flow, failure) left out: the
 * spec's fields plus the ones the vendor reference's Provider model adds (id, authenticationUserType,
 * financialServices, hasAuthenticationOptions, keywords, paymentConditions, pisCapabilities, rank,
 * releaseStatus).
 */
export function wireProvider(p: ProviderDef): Record<string, unknown> {
  const { flow: _flow, failure: _failure, ...wire } = p;
  const payments = p.capabilities.includes('PAYMENTS');
  return {
    ...wire,
    fields: p.fields.map((f) => ({ ...f })),
    capabilities: [...p.capabilities],
    id: fiId(`provider:${p.name}`),
    authenticationUserType: 'PERSONAL',
    financialServices: [{ segment: 'PERSONAL', shortName: 'Personal' }],
    hasAuthenticationOptions: false,
    keywords: [],
    paymentConditions: [],
    pisCapabilities: payments && EURO_MARKETS.has(p.market) ? ['SEPA_CREDIT_TRANSFER'] : [],
    rank: p.popular ? 1 : 0,
    // the sandbox's test providers are what the reference calls BETA; real banks carry none
    releaseStatus: p.type === 'TEST' ? 'BETA' : null,
  };
}

export interface ProviderFilter {
  market?: string;
  includeTest: boolean;
  onlyTest: boolean;
  capability?: string;
  name?: string;
}

export function filterProviders(f: ProviderFilter): ProviderDef[] {
  return PROVIDERS.filter((p) => {
    if (f.market && p.market !== f.market) return false;
    if (p.type === 'TEST' && !f.includeTest) return false;
    if (p.type !== 'TEST' && f.includeTest && f.onlyTest) return false;
    if (f.capability && !p.capabilities.includes(f.capability)) return false;
    if (f.name && p.name !== f.name) return false;
    return true;
  });
}
