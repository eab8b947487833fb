// The fields `--fields` accepts on any page (contract/item-fields.ts) are the reference's: the
// leaves of its fully populated examples (v2 transactions, providers, identities, consents,
// categories, webhook endpoints, loan and investment accounts, the user and its profile, search
// results, v2 consents and their authorizations) or the Swagger's definitions (v1 accounts,
// credentials, and what the user's, profile's and transaction's examples leave out), and a
// superset of everything the sandbox sends. A field the service added, or one the sandbox
// invented, fails here first.
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  ARCHIVED_INSIGHT_FIELDS,
  BUDGET_FIELDS,
  BUDGET_PERIOD_FIELDS,
  BUDGET_TRANSACTION_FIELDS,
  INSIGHT_FIELDS,
  RECOMMENDED_BUDGET_FIELDS,
  BUDGET_SUMMARY_FIELDS,
  IDENTITY_FIELDS,
  USER_FIELDS,
  USER_PROFILE_FIELDS,
  V1_ACCOUNT_FIELDS,
  V1_CATEGORY_FIELDS,
  V1_CREDENTIALS_FIELDS,
  V1_PROVIDER_CONSENT_FIELDS,
  V1_PROVIDER_FIELDS,
  V1_TRANSACTION_FIELDS,
  V2_ACCOUNT_FIELDS,
  V2_CONSENT_AUTHORIZATION_FIELDS,
  V2_CONSENT_FIELDS,
  V2_INVESTMENT_ACCOUNT_FIELDS,
  V2_LOAN_ACCOUNT_FIELDS,
  V2_TRANSACTION_FIELDS,
  V2_WEBHOOK_ENDPOINT_FIELDS,
} from '../../src/contract/item-fields.js';
import { example } from './replay.js';
import { runCli } from '../helpers/cli.js';
import { runWithAnswer } from '../helpers/scripted-server.js';
import { connectTestBank, useSandbox } from '../helpers/commands.js';
import { requires, sharedReference } from '../helpers/requires.js';

/** Whether a declared leaf is this path or encloses it (the Swagger's `fields` is a map of any names). */
function isDeclared(declared: readonly string[], path: string): boolean {
  return declared.some((d) => path === d || path.startsWith(`${d}.`));
}

/** The dotted paths to the leaves (anything not a plain object) of these items. */
function leaves(items: unknown[]): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, prefix: string): void => {
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype)
      for (const [k, x] of Object.entries(v)) walk(x, prefix ? `${prefix}.${k}` : k);
    else out.add(prefix);
  };
  for (const it of items) walk(it, '');
  return out;
}

// one sandbox for the file: a user with five months of demo data, and a test bank connected
const sb = useSandbox({ user: true, months: 5 });
beforeAll(async () => {
  await connectTestBank(sb.env);
});

describe('declared v2 transaction fields', () => {
  test("are the leaves of the reference's List Transactions example, no more and no fewer", () => {
    const body = example('GET__data_v2_transactions').body as { transactions: unknown[] };
    expect([...leaves(body.transactions)].sort()).toEqual([...V2_TRANSACTION_FIELDS].sort());
  });

  test('cover every field of every transaction the sandbox sends (five months of demo data)', async () => {
    const r = await runCli(['transactions', 'list', '--all', '-o', 'json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout) as unknown[];
    expect(seen.length).toBeGreaterThan(100);
    const sent = leaves(seen);
    // the demo data has payees and payers, so the optional parts are there to be checked
    expect(sent).toContain('counterparties.payee.name');
    expect(sent).toContain('counterparties.payer.name');
    expect([...sent].filter((p) => !isDeclared(V2_TRANSACTION_FIELDS, p))).toEqual([]);
  });
});

interface SwaggerSchema {
  properties?: Record<string, { $ref?: string; allOf?: Array<{ $ref?: string }> }>;
}

/** The leaves of a Swagger definition, following $refs to definitions with properties. */
function swaggerLeaves(defs: Record<string, SwaggerSchema>, name: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(defs[name]!.properties ?? {})) {
    const path = prefix ? `${prefix}.${k}` : k;
    const ref = (v.$ref ?? v.allOf?.[0]?.$ref)?.split('/').pop();
    if (ref && defs[ref]?.properties) out.push(...swaggerLeaves(defs, ref, path));
    else out.push(path);
  }
  return out;
}

const swagger = requires({ shared: ['api-v1.swagger.json'] });

swagger.describe('declared v1 account and credentials fields', () => {
  const defs = () =>
    (
      JSON.parse(readFileSync(sharedReference('api-v1.swagger.json'), 'utf8')) as {
        definitions: Record<string, SwaggerSchema>;
      }
    ).definitions;

  test("are the reference Swagger's Account and Credentials definitions, leaf for leaf (and the spec's)", () => {
    expect([...V1_ACCOUNT_FIELDS].sort()).toEqual(swaggerLeaves(defs(), 'Account').sort());
    // and the spec's two the Swagger lacks (aggregation-api.md 2.1)
    expect([...V1_CREDENTIALS_FIELDS].sort()).toEqual(
      [...swaggerLeaves(defs(), 'Credentials'), 'providerLatency', 'sensitivePayload'].sort(),
    );
  });

  test("the Swagger's Provider is within the providers' declared fields", () => {
    expect(swaggerLeaves(defs(), 'Provider').filter((p) => !V1_PROVIDER_FIELDS.includes(p))).toEqual([]);
  });
});

describe('declared v2 account fields', () => {
  test("hold every leaf of the reference's List Accounts and Get Account examples", () => {
    const list = example('GET__data_v2_accounts').body as { accounts: unknown[] };
    const one = example('GET__data_v2_accounts_id').body;
    const missing = [...leaves([...list.accounts, one])].filter((p) => !V2_ACCOUNT_FIELDS.includes(p));
    expect(missing).toEqual([]);
  });

  test('cover every field of the v2 accounts the sandbox sends, and take a declared one none has', async () => {
    const r = await runCli(['accounts', 'list', '--v2', '--all', '-o', 'json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const sent = leaves(JSON.parse(r.stdout) as unknown[]);
    expect(sent).toContain('balances.booked.amount.value.unscaledValue');
    expect([...sent].filter((p) => !isDeclared(V2_ACCOUNT_FIELDS, p))).toEqual([]);
    const sortCode = await runCli(
      ['accounts', 'list', '--v2', '-o', 'csv', '--fields', 'name,identifiers.sortCode.code'],
      {
        env: sb.env,
      },
    );
    expect(sortCode.code, sortCode.stderr).toBe(0);
    expect(sortCode.stdout).toMatch(/^name,identifiers\.sortCode\.code\r\n[^,\r\n]+,\r\n/);
  });
});

describe('declared provider fields', () => {
  test("are the leaves of the reference's List Providers example", () => {
    const body = example('GET__api_v1_providers').body as { providers: unknown[] };
    expect([...leaves(body.providers)].sort()).toEqual([...V1_PROVIDER_FIELDS].sort());
  });
});

describe('declared v1 fields, against the sandbox', () => {
  test('cover every field of the accounts and credentials a connected test bank gives', async () => {
    const accounts = await runCli(['accounts', 'list', '-o', 'json'], { env: sb.env });
    expect(accounts.code, accounts.stderr).toBe(0);
    const creds = await runCli(['credentials', 'list', '-o', 'json'], { env: sb.env });
    expect(creds.code, creds.stderr).toBe(0);
    const a = leaves(JSON.parse(accounts.stdout) as unknown[]);
    const c = leaves(JSON.parse(creds.stdout) as unknown[]);
    expect(a).toContain('currencyDenominatedBalance.scale');
    expect(c).toContain('fields.username');
    expect([...a].filter((p) => !isDeclared(V1_ACCOUNT_FIELDS, p))).toEqual([]);
    expect([...c].filter((p) => !isDeclared(V1_CREDENTIALS_FIELDS, p))).toEqual([]);
  });

  test("cover every field of every provider the sandbox lists, the test providers' too", async () => {
    const r = await runCli(['providers', 'list', '--market', 'SE', '--include-test', '-o', 'json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const sent = leaves(JSON.parse(r.stdout) as unknown[]);
    expect(sent).toContain('images.icon');
    expect([...sent].filter((p) => !isDeclared(V1_PROVIDER_FIELDS, p))).toEqual([]);
    // one the sandbox never sends is still a column, not an error
    const colour = await runCli(
      ['providers', 'list', '--market', 'SE', '-o', 'csv', '--fields', 'name,loginHeaderColour'],
      {
        env: sb.env,
      },
    );
    expect(colour.code, colour.stderr).toBe(0);
    expect(colour.stdout).toMatch(/^name,loginHeaderColour\r\n[^,\r\n]+,\r\n/);
  });

  test("--fields takes a declared field no account has (a loan's details), and still refuses a typo", async () => {
    const ok = await runCli(['accounts', 'list', '-o', 'csv', '--fields', 'name,details.interest'], { env: sb.env });
    expect(ok.code, ok.stderr).toBe(0);
    const lines = ok.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('name,details.interest');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines.slice(1)) expect(l).toMatch(/^[^,]+,$/);
    const typo = await runCli(['credentials', 'list', '--fields', 'id,statusPayloa'], { env: sb.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown path "statusPayloa".*available: .*sensitivePayload/s);
  });
});

describe('declared fields of one item', () => {
  test('the verbs that show one credentials, account or provider take a declared field it lacks', async () => {
    // a connect (a second test bank) that ends without sensitivePayload: connected, an empty cell
    const connect = await runCli(
      [
        ...['credentials', 'connect', '--provider', 'se-test-other-password', '--field', 'username=test-user'],
        ...[
          '--field-stdin',
          'password',
          '--poll-interval',
          '20',
          '-o',
          'csv',
          '--fields',
          'id,status,sensitivePayload',
        ],
      ],
      { env: sb.env, stdin: 'test-password\n' },
    );
    expect(connect.code, connect.stderr).toBe(0);
    const id = /^id,status,sensitivePayload\r\n([0-9a-f]{32}),UPDATED,\r\n$/.exec(connect.stdout)?.[1];
    expect(id, connect.stdout).toBeDefined();
    const v1 = JSON.parse((await runCli(['accounts', 'list', '-o', 'json'], { env: sb.env })).stdout) as {
      id: string;
      name: string;
      type: string;
    }[];
    const checking = v1.find((a) => a.type === 'CHECKING')!;
    const v2 = JSON.parse((await runCli(['accounts', 'list', '--v2', '-o', 'json'], { env: sb.env })).stdout) as {
      id: string;
    }[];
    for (const [argv, line] of [
      [['credentials', 'get', id!, '--fields', 'id,sensitivePayload'], `${id},`],
      [['accounts', 'get', v2[0]!.id, '--fields', 'id,identifiers.iban.bic'], `${v2[0]!.id},`],
      [
        ['accounts', 'update', checking.id, '--name', checking.name, '--fields', 'id,details.interest'],
        `${checking.id},`,
      ],
      [['providers', 'get', 'se-test-password', '--fields', 'name,loginHeaderColour'], 'se-test-password,'],
    ] as const) {
      const r = await runCli([...argv, '-o', 'csv'], { env: sb.env });
      expect([r.code, r.stderr, r.stdout.split('\r\n')[1]]).toEqual([0, '', line]);
    }
    const typo = await runCli(['credentials', 'get', id!, '--fields', 'id,sensitivePayloa'], { env: sb.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown path "sensitivePayloa".*available: .*sensitivePayload/s);
  });
});

/**
 * The other lists: each one's declared fields are the leaves of the reference's examples of it, no
 * more and no fewer; the sandbox sends none beyond them; and `--fields` takes one the sandbox's
 * answer lacks (an empty cell), where it used to be "unknown path" (exit 2).
 */
const LISTS: {
  name: string;
  declared: readonly string[];
  /** The reference's examples: file and the key of the items (undefined: the body is the item or the list). */
  examples: [string, string | undefined][];
  list: string[];
  /** A declared field no item of the sandbox's answer has (none where it sends every one). */
  absent?: string;
  /** Set up before the list has items. */
  before?: () => Promise<void>;
}[] = [
  {
    name: 'identities (v1 and v2)',
    declared: IDENTITY_FIELDS,
    examples: [
      ['GET__api_v1_identities', 'identities'],
      ['GET__data_v2_identities', 'identities'],
    ],
    list: ['identities', 'list'],
  },
  {
    name: 'provider consents',
    declared: V1_PROVIDER_CONSENT_FIELDS,
    examples: [['GET__api_v1_provider-consents', 'providerConsents']],
    list: ['consents', 'list'],
  },
  {
    name: 'categories',
    declared: V1_CATEGORY_FIELDS,
    examples: [['GET__api_v1_categories', undefined]],
    list: ['categories', 'list'],
  },
  {
    name: 'webhook endpoints',
    declared: V2_WEBHOOK_ENDPOINT_FIELDS,
    examples: [
      ['GET__events_v2_webhook-endpoints', 'webhookEndpoints'],
      ['POST__events_v2_webhook-endpoints', undefined],
    ],
    list: ['webhooks', 'endpoints', 'list'],
    absent: 'description',
    before: async () => {
      const r = await runCli(
        ['webhooks', 'endpoints', 'create', '--url', 'http://127.0.0.1:9/hook', '--event', 'refresh:finished'],
        { env: sb.env },
      );
      expect(r.code, r.stderr).toBe(0);
    },
  },
  {
    name: 'loan accounts',
    declared: V2_LOAN_ACCOUNT_FIELDS,
    examples: [
      ['GET__data_v2_loan-accounts', 'loanAccounts'],
      ['GET__data_v2_loan-accounts_id', undefined],
    ],
    list: ['loans', 'accounts'],
    absent: 'guarantor.name',
  },
  {
    name: 'investment accounts',
    declared: V2_INVESTMENT_ACCOUNT_FIELDS,
    examples: [
      ['GET__data_v2_investment-accounts', 'investmentAccounts'],
      ['GET__data_v2_investment-accounts_id', undefined],
    ],
    list: ['investments', 'accounts'],
    absent: 'monetaryAccountIdentifiers.iban.bic',
  },
];

describe.each(LISTS)('declared fields of $name', (c) => {
  // with a user of five months of demo data and two test banks connected (the tests above)
  test("are the leaves of the reference's examples", () => {
    const items = c.examples.flatMap(([file, key]) => {
      const body = example(file).body as Record<string, unknown>;
      const v = key === undefined ? body : body[key];
      return Array.isArray(v) ? v : [v];
    });
    expect([...leaves(items)].sort()).toEqual([...c.declared].sort());
  });

  test('cover what the sandbox sends, and take a declared field its answer lacks', async () => {
    await c.before?.();
    const r = await runCli([...c.list, '-o', 'json'], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout) as unknown[];
    expect(items.length).toBeGreaterThan(0);
    const sent = leaves(items);
    expect([...sent].filter((p) => !isDeclared(c.declared, p))).toEqual([]);
    if (c.absent === undefined) return;
    expect(sent).not.toContain(c.absent);
    const csv = await runCli([...c.list, '-o', 'csv', '--fields', `id,${c.absent}`], { env: sb.env });
    expect([csv.code, csv.stderr]).toEqual([0, '']);
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe(`id,${c.absent}`);
    expect(lines.length).toBe(items.length + 1);
    for (const l of lines.slice(1)) expect(l).toMatch(/^[^,]*,$/);
  });
});

describe('declared fields of lists the sandbox always fills', () => {
  // a service whose items leave out optional fields: they are still columns, not "unknown path"
  test.each([
    [['identities', 'list'], { identities: [{ name: 'Jane Doe', providerName: 'se-bank' }] }, 'name,ssn'],
    [
      ['consents', 'list'],
      { providerConsents: [{ credentialsId: 'c1', status: 'UPDATED' }] },
      'credentialsId,detailedError.type',
    ],
    [['categories', 'list'], [{ id: 'k1', code: 'expenses:misc', type: 'EXPENSES' }], 'id,searchTerms'],
  ])('%j', async (argv, body, fields) => {
    const r = await runWithAnswer(body, [...argv, '-o', 'csv', '--fields', fields], sb.env.BANKCTL_CONFIG_DIR!);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.split('\r\n').slice(0, 2)).toEqual([fields, expect.stringMatching(/^[^,]+,$/)]);
  });
});

/** The leaves of a JSON schema's object properties ($refs into its $defs followed; an array is a leaf). */
function schemaLeaves(root: SchemaNode, node: SchemaNode = root, prefix = ''): string[] {
  const at = node.$ref ? root.$defs![node.$ref.split('/').pop()!]! : node;
  if (!at.properties) return [prefix];
  return Object.entries(at.properties).flatMap(([k, v]) => schemaLeaves(root, v, prefix ? `${prefix}.${k}` : k));
}
interface SchemaNode {
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
  properties?: Record<string, SchemaNode>;
}

/** The items of an example: its body, or the value under a key path (a list is flattened). */
function exampleItems(file: string, keys: string[]): unknown[] {
  // a body that is the list (insights) gives its items
  let items: unknown[] = [example(file).body].flat();
  for (const k of keys) items = items.flatMap((it) => (it as Record<string, unknown>)[k] as unknown);
  return items;
}

/**
 * One user, profile, search result, v2 consent, budget and its parts, and insight: the declared fields are the leaves of the
 * reference's examples and, where the examples leave some out, of the Swagger definition or the
 * consent template that names them; the sandbox sends none beyond them; and a service answer that
 * lacks one still gives it as an empty cell, not "unknown path" (exit 2).
 */
const ONE: {
  name: string;
  declared: readonly string[];
  examples: [string, string[]][];
  /** The declared fields no example shows, and where they come from. */
  beyond: string[];
  swagger?: [string, string];
  /** Declared fields only the sandbox sends (README's spec-gaps rows say so). */
  sandboxOwn?: string[];
  /** A sparse answer of a node:http server, the command, and --fields with a declared field it lacks. */
  sparse: { body: unknown; argv: string[]; fields: string };
}[] = [
  {
    name: 'user (users get, users update)',
    declared: USER_FIELDS,
    examples: [
      ['GET__api_v1_user', []],
      ['PATCH__api_v1_user', []],
    ],
    beyond: ['profile.cashbackEnabled'],
    swagger: ['User', ''],
    sparse: { body: { id: 'u1', profile: { market: 'SE' } }, argv: ['users', 'get'], fields: 'id,nationalId' },
  },
  {
    name: 'profile (users profile get, set)',
    declared: USER_PROFILE_FIELDS,
    examples: [
      ['GET__api_v1_user_profile', []],
      ['PUT__api_v1_user_profile', []],
    ],
    beyond: ['cashbackEnabled'],
    swagger: ['UserProfile', ''],
    sparse: {
      body: { market: 'SE', currency: 'SEK' },
      argv: ['users', 'profile', 'get'],
      fields: 'market,notificationSettings.budget',
    },
  },
  {
    name: 'v1 transaction (search results)',
    declared: V1_TRANSACTION_FIELDS,
    examples: [['POST__api_v1_search', ['results', 'transaction']]],
    beyond: ['credentialsId', 'partnerPayload', 'payload'],
    swagger: ['Transaction', ''],
    sparse: {
      body: { count: 1, net: 5, results: [{ type: 'TRANSACTION', transaction: { id: 't1', amount: 5 } }] },
      argv: ['search', 'coffee'],
      fields: 'id,originalDescription',
    },
  },
  {
    name: 'v2 consent',
    declared: V2_CONSENT_FIELDS,
    examples: [
      ['GET__connectivity_v2_consents', ['consents']],
      ['GET__connectivity_v2_consents_consentId', ['consent']],
      ['POST__connectivity_v2_consents', ['consent']],
      ['POST__connectivity_v2_consents_consentId_revoke', ['consent']],
    ],
    beyond: ['remittanceInformation.reference', 'remittanceInformation.unstructured'].map(
      (p) => `financialServiceParameters.userParameters.${p}`,
    ),
    sparse: {
      body: { consents: [{ id: 'c1', state: 'INITIALIZED' }], nextPageToken: '' },
      argv: ['consents', 'v2', 'list'],
      fields: 'id,revokedAt',
    },
  },
  {
    name: 'budget (budgets list, create, update, archive)',
    declared: BUDGET_FIELDS,
    examples: [['GET__api_v1_budgets', ['budgetSpecifications']]],
    beyond: [],
    swagger: ['Budget', ''],
    sparse: {
      body: { budgetSpecifications: [{ id: 'b1', name: 'Coffee', periodicityType: 'RECURRING' }] },
      argv: ['budgets', 'list'],
      fields: 'id,created',
    },
  },
  {
    name: 'budget summary (budgets summaries)',
    declared: BUDGET_SUMMARY_FIELDS,
    examples: [['GET__api_v1_budgets_summaries', ['budgetSummaries']]],
    // the older Swagger's name of the current period
    beyond: ['end', 'start', 'spentAmount.currencyCode', 'spentAmount.scale', 'spentAmount.unscaledValue'].map(
      (p) => `budgetPeriods.${p}`,
    ),
    swagger: ['BudgetSummary', ''],
    sparse: {
      body: { budgetSummaries: [{ budgetSpecification: { id: 'b1', name: 'Coffee' } }] },
      argv: ['budgets', 'summaries'],
      fields: 'budgetSpecification.id,budgetPeriod.start',
    },
  },
  {
    name: 'budget transaction (budgets transactions)',
    declared: BUDGET_TRANSACTION_FIELDS,
    examples: [['GET__api_v1_budgets_id_transactions', ['transactions']]],
    beyond: [],
    swagger: ['BudgetTransaction', ''],
    sparse: {
      body: { transactions: [{ id: 't1', description: 'Coffee' }] },
      argv: ['budgets', 'transactions', 'b1', '--start', '2026-01-01', '--end', '2026-01-31'],
      fields: 'id,pending',
    },
  },
  {
    name: 'budget period (budgets details)',
    declared: BUDGET_PERIOD_FIELDS,
    examples: [['GET__api_v1_budgets_id_details', ['budgetPeriods']]],
    beyond: [],
    swagger: ['BudgetPeriod', ''],
    sparse: {
      body: { budgetSpecification: { id: 'b1', name: 'Coffee' }, budgetPeriods: [{ start: 1549976786000 }] },
      argv: ['budgets', 'details', 'b1'],
      fields: 'start,spentAmount.unscaledValue',
    },
  },
  {
    name: 'recommended budget (budgets recommended)',
    declared: RECOMMENDED_BUDGET_FIELDS,
    examples: [['GET__api_v1_budgets_recommended', ['recommendedBudgets']]],
    beyond: [],
    sandboxOwn: [
      'averageSpentAmount.currencyCode',
      'averageSpentAmount.scale',
      'averageSpentAmount.unscaledValue',
    ].concat(['basedOnPeriods', 'periodicityType']),
    sparse: {
      body: { recommendedBudgets: [{ name: 'Coffee' }] },
      argv: ['budgets', 'recommended'],
      fields: 'name,recurringPeriodicity.periodUnit',
    },
  },
  {
    name: 'insight (insights list)',
    declared: INSIGHT_FIELDS,
    examples: [['GET__api_v1_insights', []]],
    beyond: [],
    swagger: ['Actionable Insight', ''],
    sparse: { body: [{ id: 'i1', type: 'LARGE_EXPENSE' }], argv: ['insights', 'list'], fields: 'id,createdTime' },
  },
  {
    name: 'archived insight (insights archived)',
    declared: ARCHIVED_INSIGHT_FIELDS,
    examples: [['GET__api_v1_insights_archived', []]],
    // the older Swagger's name of the type
    beyond: ['type'],
    swagger: ['ArchivedInsight', ''],
    sandboxOwn: ['insightAction'],
    sparse: { body: [{ id: 'i1', title: 'Low' }], argv: ['insights', 'archived'], fields: 'id,dateArchived' },
  },
  {
    name: 'v2 consent authorization',
    declared: V2_CONSENT_AUTHORIZATION_FIELDS,
    examples: [
      ['GET__connectivity_v2_consents_consentId_authorizations', ['authorizations']],
      ['GET__connectivity_v2_consents_consentId_authorizations_authorizationId', ['authorization']],
      ['POST__connectivity_v2_consents_consentId_authorizations', ['authorization']],
    ],
    beyond: [],
    sparse: {
      body: { authorizations: [{ id: 'a1', state: 'CREATED' }], nextPageToken: '' },
      argv: ['consents', 'v2', 'authorizations', 'c1'],
      fields: 'id,detailedError.type',
    },
  },
];

describe.each(ONE)('declared fields of one $name', (c) => {
  test("are the leaves of the reference's examples, and the few its definitions add", () => {
    const items = c.examples.flatMap(([file, keys]) => exampleItems(file, keys));
    const shown = leaves(items);
    expect([...shown, ...c.beyond, ...(c.sandboxOwn ?? [])].sort()).toEqual([...c.declared].sort());
    expect(c.beyond.filter((p) => shown.has(p))).toEqual([]);
  });

  test('take a declared field a sparse answer lacks: an empty cell, exit 0', async () => {
    const run = (fields: string) =>
      runWithAnswer(c.sparse.body, [...c.sparse.argv, '-o', 'csv', '--fields', fields], sb.env.BANKCTL_CONFIG_DIR!);
    const r = await run(c.sparse.fields);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/error|unknown/); // search's count line is a notice there
    expect(r.stdout.split('\r\n').slice(0, 2)).toEqual([c.sparse.fields, expect.stringMatching(/^[^,]+,$/)]);
    // and a typo is still one
    const typo = await run(`${c.sparse.fields.split(',')[0]!},nosuchfield`);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown path "nosuchfield"/);
  });
});

swagger.describe("declared fields beyond the examples, from the Swagger's definitions", () => {
  test.each(ONE.filter((c) => c.swagger))('$name', (c) => {
    const defs = (
      JSON.parse(readFileSync(sharedReference('api-v1.swagger.json'), 'utf8')) as {
        definitions: Record<string, SwaggerSchema>;
      }
    ).definitions;
    const fromSwagger = swaggerLeaves(defs, c.swagger![0]);
    // each added field is the Swagger's, and every Swagger field is declared (or encloses declared ones)
    expect(c.beyond.filter((p) => !fromSwagger.includes(p))).toEqual([]);
    expect(
      fromSwagger.filter((p) => !isDeclared(c.declared, p) && !c.declared.some((d) => d.startsWith(`${p}.`))),
    ).toEqual([]);
  });
});

test("the v2 consent's declared userParameters are the consent template schema's leaves", () => {
  const t = (
    example('GET__connectivity_v2_consent-templates_providerId').body as { templates: { schema: SchemaNode }[] }
  ).templates[0]!.schema;
  const prefix = 'financialServiceParameters.userParameters.';
  // periodicLimits is a list: its items' fields are not paths of --fields
  const fromSchema = schemaLeaves(t).map((p) => prefix + p);
  const declared = V2_CONSENT_FIELDS.filter((p) => p.startsWith(prefix) && !p.endsWith('.parameter'));
  expect(fromSchema.sort()).toEqual([...declared].sort());
});

describe('declared fields of one item, against the sandbox', () => {
  test("cover a budget's transactions, periods and recommendations, and insights, the sandbox sends", async () => {
    const ndjson = async (argv: string[]) => {
      const r = await runCli([...argv, '-o', 'ndjson'], { env: sb.env });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown);
    };
    const [budget] = (await ndjson(
      [
        ...['budgets', 'create-recurring', '--name', 'Food', '--amount', '3000', '--currency', 'SEK'],
        '--category',
      ].concat('expenses:food'),
    )) as { id: string }[];
    const [insight] = (await ndjson(['insights', 'list'])) as {
      id: string;
      insightActions: { data: { type: string } }[];
    }[];
    const act = await runCli(['insights', 'action', insight!.id, '--action', insight!.insightActions[0]!.data.type], {
      env: sb.env,
    });
    expect(act.code, act.stderr).toBe(0);
    const month = ['--start', '2026-01-01', '--end', '2026-12-31'];
    for (const [argv, declared, some] of [
      [['budgets', 'transactions', budget!.id, ...month], BUDGET_TRANSACTION_FIELDS, 'pending'],
      [['budgets', 'details', budget!.id, ...month], BUDGET_PERIOD_FIELDS, 'spentAmount.unscaledValue'],
      [['budgets', 'recommended'], RECOMMENDED_BUDGET_FIELDS, 'recurringPeriodicity.periodUnit'],
      [['insights', 'list'], INSIGHT_FIELDS, 'createdTime'],
      [['insights', 'archived'], ARCHIVED_INSIGHT_FIELDS, 'insightType'],
    ] as const) {
      const items = await ndjson([...argv]);
      // details' ndjson is the one answer: its periods are the rows
      const rows = argv[1] === 'details' ? (items[0] as { budgetPeriods: unknown[] }).budgetPeriods : items;
      expect(rows.length, argv.join(' ')).toBeGreaterThan(0);
      const sent = leaves(rows);
      expect(sent, argv.join(' ')).toContain(some);
      // what an insight's data holds beyond its type depends on the type (learned from the answer)
      const open = (p: string) => argv[0] === 'insights' && p.startsWith('data.');
      expect(
        [...sent].filter((p) => !isDeclared(declared, p) && !open(p)),
        argv.join(' '),
      ).toEqual([]);
    }
  });

  test('cover the user, its profile, search results, a v2 consent and budgets the sandbox sends', async () => {
    const app = { ...sb.env, BANKCTL_USER: undefined };
    const consent = await runCli(
      [
        ...['consents', 'v2', 'create', '--provider', 'se-test-open-banking-redirect', '--for-user', sb.userId!],
        ...['--currency', 'SEK', '--max-amount', '100.50', '--limit', 'MONTH=500', '--payee-name', 'Savings'],
        ...['--payee-number', '123456', '--reference', 'SWEEP-2026', '--remittance-text', 'Monthly'],
      ],
      { env: app },
    );
    expect(consent.code, consent.stderr).toBe(0);
    const budget = await runCli(
      [
        ...['budgets', 'create-one-off', '--name', 'Trip', '--amount', '1200.50', '--currency', 'SEK'],
        ...['--start', '2026-01-01', '--end', '2026-12-31', '--category', 'expenses:food', '--tag', 'trip'],
        ...['--text', 'hotel'],
      ],
      { env: sb.env },
    );
    expect(budget.code, budget.stderr).toBe(0);
    for (const [argv, declared, some] of [
      [['users', 'get'], USER_FIELDS, 'profile.notificationSettings.budget'],
      [['users', 'profile', 'get'], USER_PROFILE_FIELDS, 'periodMode'],
      [['search', 'över', '100'], V1_TRANSACTION_FIELDS, 'currencyDenominatedAmount.scale'],
      [
        ['consents', 'v2', 'list', '--all'],
        V2_CONSENT_FIELDS,
        'financialServiceParameters.userParameters.remittanceInformation.reference',
      ],
      [['budgets', 'list'], BUDGET_FIELDS, 'oneOffPeriodicity.start'],
      [['budgets', 'summaries'], BUDGET_SUMMARY_FIELDS, 'budgetPeriod.spentAmount.unscaledValue'],
    ] as const) {
      // ndjson: one item a line (a search's hits, a single user or profile as its one line)
      const r = await runCli([...argv, '-o', 'ndjson'], { env: argv[0] === 'consents' ? app : sb.env });
      expect(r.code, r.stderr).toBe(0);
      const items = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown);
      expect(items.length, argv.join(' ')).toBeGreaterThan(0);
      const sent = leaves(items);
      expect(sent, argv.join(' ')).toContain(some);
      expect(
        [...sent].filter((p) => !isDeclared(declared, p)),
        argv.join(' '),
      ).toEqual([]);
    }
  });
});
