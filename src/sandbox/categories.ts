// The sandbox's category catalogue: a flat list with parent/child links (spec 2.4 and 4.3). Primary
// categories group leaves; a transaction always carries a leaf. Ids are dashless UUIDs derived from
// the code, so they are the same in every sandbox and every run.
import { createHash } from 'node:crypto';

/** Spec 2.4 speaks of INCOME, EXPENSES and TRANSFER categories (the Swagger enum says TRANSFERS). */
export type CategoryType = 'INCOME' | 'EXPENSES' | 'TRANSFER';

export type CategoryLocale = 'en_US' | 'sv_SE';

export interface Category {
  /** Dashless UUID (32 hex). */
  id: string;
  /** The primary category's id for a leaf, null for a primary. */
  parent: string | null;
  /** Machine-readable code: `expenses:food` (primary), `expenses:food.groceries` (leaf). */
  code: string;
  type: CategoryType;
  primary: boolean;
  /** The leaf used when something is categorised to the primary level. */
  defaultChild: boolean;
  sortOrder: number;
  names: Record<CategoryLocale, string>;
  /** Comma-separated words the search engine also matches. */
  searchTerms: string;
}

/** Ids shared with the connector area (src/sandbox/connector/state.ts): uncategorised expense and income. */
export const UNCATEGORIZED_EXPENSE_ID = '0e1bade6a7e3459eb794e3b5a4f3c2e1';
export const UNCATEGORIZED_INCOME_ID = '0e1bade6a7e3459eb794e3b5a4f3c2e2';

const FIXED_IDS: Record<string, string> = {
  'expenses:misc.uncategorized': UNCATEGORIZED_EXPENSE_ID,
  'income:other.other': UNCATEGORIZED_INCOME_ID,
};

function idOf(code: string): string {
  return FIXED_IDS[code] ?? createHash('sha256').update(`bankctl-category:${code}`).digest('hex').slice(0, 32);
}

// [code, en_US, sv_SE, searchTerms]; the first leaf of each primary is its default child.
type Row = [string, string, string, string?];
const TREE: Array<{ type: CategoryType; primary: Row; leaves: Row[] }> = [
  {
    type: 'INCOME',
    primary: ['income:salary', 'Salary', 'Lön'],
    leaves: [['income:salary.other', 'Salary', 'Lön', 'salary,wage,pay,lön']],
  },
  {
    type: 'INCOME',
    primary: ['income:pension', 'Pension', 'Pension'],
    leaves: [['income:pension.other', 'Pension', 'Pension', 'pension']],
  },
  {
    type: 'INCOME',
    primary: ['income:refund', 'Refunds', 'Återbetalningar'],
    leaves: [['income:refund.other', 'Refunds', 'Återbetalningar', 'refund,return,återbetalning']],
  },
  {
    type: 'INCOME',
    primary: ['income:financial', 'Financial income', 'Finansiella intäkter'],
    leaves: [
      ['income:financial.interest', 'Interest', 'Ränta', 'interest,ränta'],
      ['income:financial.dividends', 'Dividends', 'Utdelningar', 'dividend,utdelning'],
    ],
  },
  {
    type: 'INCOME',
    primary: ['income:other', 'Other income', 'Övriga inkomster'],
    leaves: [['income:other.other', 'Other income', 'Övriga inkomster', 'income,inkomst']],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:food', 'Food & Drinks', 'Mat & Dryck'],
    leaves: [
      ['expenses:food.groceries', 'Groceries', 'Livsmedel', 'groceries,food,supermarket,mat'],
      ['expenses:food.restaurants', 'Restaurants', 'Restaurang', 'restaurant,dinner,lunch,restaurang'],
      ['expenses:food.coffee', 'Coffee & Snacks', 'Fika', 'coffee,cafe,snacks,kaffe,fika'],
      ['expenses:food.alcohol-tobacco', 'Alcohol & Tobacco', 'Alkohol & Tobak', 'alcohol,tobacco,systembolaget'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:transport', 'Transport', 'Transport'],
    leaves: [
      ['expenses:transport.publictransport', 'Public transport', 'Kollektivtrafik', 'bus,train,metro,kollektivtrafik'],
      ['expenses:transport.fuel', 'Fuel', 'Drivmedel', 'fuel,gas,petrol,bensin'],
      ['expenses:transport.car', 'Car & Parking', 'Bil & Parkering', 'car,parking,parkering'],
      ['expenses:transport.taxi', 'Taxi', 'Taxi', 'taxi,uber'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:home', 'Home', 'Hem'],
    leaves: [
      ['expenses:home.rent', 'Rent', 'Hyra', 'rent,hyra,avgift'],
      ['expenses:home.mortgage-interest', 'Mortgage interest', 'Bolåneränta', 'mortgage,interest,bolån,ränta'],
      ['expenses:home.utilities', 'Utilities', 'El & Vatten', 'electricity,water,utilities,el'],
      ['expenses:home.communications', 'Phone & Internet', 'Telefon & Internet', 'phone,internet,mobile,telefon'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:shopping', 'Shopping', 'Shopping'],
    leaves: [
      ['expenses:shopping.other', 'Shopping', 'Shopping', 'shopping'],
      ['expenses:shopping.clothes', 'Clothes', 'Kläder', 'clothes,fashion,kläder'],
      ['expenses:shopping.electronics', 'Electronics', 'Elektronik', 'electronics,computer,tv,elektronik'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:entertainment', 'Entertainment', 'Nöje'],
    leaves: [
      ['expenses:entertainment.culture', 'Culture & Events', 'Kultur & Evenemang', 'cinema,concert,theatre,bio'],
      ['expenses:entertainment.streaming', 'Streaming', 'Streaming', 'streaming,music,tv,netflix,spotify'],
      ['expenses:entertainment.sport', 'Sports & Fitness', 'Sport & Träning', 'gym,sport,fitness,träning'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:health', 'Health & Beauty', 'Hälsa & Skönhet'],
    leaves: [
      ['expenses:health.healthcare', 'Healthcare', 'Sjukvård', 'doctor,dentist,healthcare,vård'],
      ['expenses:health.pharmacy', 'Pharmacy', 'Apotek', 'pharmacy,medicine,apotek'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:travel', 'Travel', 'Resor'],
    leaves: [
      ['expenses:travel.flights', 'Flights', 'Flyg', 'flight,airline,flyg'],
      ['expenses:travel.hotels', 'Hotels', 'Hotell', 'hotel,accommodation,hotell'],
    ],
  },
  {
    type: 'EXPENSES',
    primary: ['expenses:misc', 'Other expenses', 'Övriga utgifter'],
    leaves: [
      ['expenses:misc.uncategorized', 'Uncategorized', 'Okategoriserat', 'uncategorized,other'],
      ['expenses:misc.withdrawals', 'Cash withdrawals', 'Kontantuttag', 'cash,atm,withdrawal,uttag'],
      ['expenses:misc.fees', 'Bank fees', 'Bankavgifter', 'fee,bank,avgift'],
    ],
  },
  {
    type: 'TRANSFER',
    primary: ['transfers:own', 'Transfers', 'Överföringar'],
    leaves: [['transfers:own.accounts', 'Between own accounts', 'Mellan egna konton', 'transfer,överföring']],
  },
  {
    type: 'TRANSFER',
    primary: ['transfers:savings', 'Savings', 'Sparande'],
    leaves: [
      ['transfers:savings.other', 'Savings', 'Sparande', 'savings,sparande'],
      ['transfers:savings.investments', 'Investments', 'Investeringar', 'investment,fund,isk,fonder'],
    ],
  },
  {
    type: 'TRANSFER',
    primary: ['transfers:payments', 'Payments', 'Betalningar'],
    leaves: [
      ['transfers:payments.creditcard', 'Credit card payment', 'Kreditkortsbetalning', 'credit card,kreditkort'],
      ['transfers:payments.loan', 'Loan repayment', 'Amortering', 'loan,amortization,amortering'],
    ],
  },
];

function build(): Category[] {
  const out: Category[] = [];
  let sort = 0;
  for (const group of TREE) {
    const [pcode, pen, psv, pterms] = group.primary;
    const pid = idOf(pcode);
    out.push({
      id: pid,
      parent: null,
      code: pcode,
      type: group.type,
      primary: true,
      defaultChild: false,
      sortOrder: ++sort,
      names: { en_US: pen, sv_SE: psv },
      searchTerms: pterms ?? pen.toLowerCase(),
    });
    group.leaves.forEach(([code, en, sv, terms], i) => {
      out.push({
        id: idOf(code),
        parent: pid,
        code,
        type: group.type,
        primary: false,
        defaultChild: i === 0,
        sortOrder: ++sort,
        names: { en_US: en, sv_SE: sv },
        searchTerms: terms ?? en.toLowerCase(),
      });
    });
  }
  return out;
}

export const CATEGORIES: readonly Category[] = Object.freeze(build());

const BY_ID = new Map(CATEGORIES.map((c) => [c.id, c]));
const BY_CODE = new Map(CATEGORIES.map((c) => [c.code, c]));

export function categoryById(id: string): Category | undefined {
  return BY_ID.get(id);
}

export function categoryByCode(code: string): Category | undefined {
  return BY_CODE.get(code);
}

/** The id of a code that must exist (a typo in the sandbox's own tables is a bug, found at once). */
export function categoryId(code: string): string {
  const c = BY_CODE.get(code);
  if (!c) throw new Error(`unknown category code ${code}`);
  return c.id;
}

export function leafCategories(type?: CategoryType): Category[] {
  return CATEGORIES.filter((c) => !c.primary && (type === undefined || c.type === type));
}

/** The primary category of a leaf (itself for a primary). */
export function primaryOf(cat: Category): Category {
  return cat.parent ? (BY_ID.get(cat.parent) ?? cat) : cat;
}

function pickLocale(locale: string | undefined): CategoryLocale {
  if (!locale) return 'en_US';
  return locale === 'sv_SE' || locale.startsWith('sv') ? 'sv_SE' : 'en_US';
}

/** The category's own name in a locale (sv_SE, else English). */
export function categoryName(cat: Category, locale?: string): string {
  return cat.names[pickLocale(locale)];
}

const TYPE_NAMES: Record<CategoryType, Record<CategoryLocale, string>> = {
  INCOME: { en_US: 'Income', sv_SE: 'Inkomster' },
  EXPENSES: { en_US: 'Expenses', sv_SE: 'Utgifter' },
  TRANSFER: { en_US: 'Transfers', sv_SE: 'Överföringar' },
};

export function categoryTypeName(type: CategoryType, locale?: string): string {
  return TYPE_NAMES[type][pickLocale(locale)];
}

/** A category as GET /api/v1/categories shows it (the Swagger Category shape). */
export function apiCategory(cat: Category, locale?: string): Record<string, unknown> {
  const primary = primaryOf(cat);
  return {
    id: cat.id,
    parent: cat.parent,
    code: cat.code,
    type: cat.type,
    typeName: categoryTypeName(cat.type, locale),
    primaryName: categoryName(primary, locale),
    secondaryName: cat.primary ? null : categoryName(cat, locale),
    defaultChild: cat.defaultChild,
    sortOrder: cat.sortOrder,
    searchTerms: cat.searchTerms,
  };
}
