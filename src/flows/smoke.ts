// The CI smoke suite: a named list of checks over the whole journey, each timed. It uses only
// documented endpoints and test providers, reaches them only through api/, and cleans up after
// itself (the test users, and the tokens cached for them), so the same suite runs against the
// sandbox and against the real service.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { ApiClient } from '../api/client.js';
import { listAccounts } from '../api/accounts.js';
import { createConnectorUser, deleteConnectorUser, ingestTransactions, pushAccounts } from '../api/connector.js';
import {
  createCredentials,
  FAILED_STATUSES,
  getCredentials,
  listProviderConsents,
  supplementInformation,
} from '../api/credentials.js';
import { listProviders, type Provider } from '../api/providers.js';
import { transactionPages, type TransactionFilter } from '../api/transactions.js';
import { createUser, deleteUser } from '../api/users.js';
import { createConnectorWebhook, deleteConnectorWebhook, v1HookOf } from '../api/webhooks.js';
import type { TokenManager } from '../auth/tokens.js';
import { addDecimals, decimalString } from '../contract/decimal.js';
import { ExactNumber, writeJson } from '../contract/exact-json.js';
import { secretsEqual } from '../contract/secrets.js';
import { parseSupplemental } from './supplemental.js';

export interface SmokeOptions {
  provider: string;
  market: string;
  keep: boolean;
  /** Seconds a bank connection may take. */
  connectTimeoutS: number;
  /** Whether a local webhook receiver can be reached by the service (loopback base URL). */
  localWebhooks: boolean;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** The provider's fields as its flow needs them (smokeFields); default username and password. */
  fields?: Record<string, string>;
}

/** A person is needed: the provider logs in on a real bank's page (a redirect). */
export function needsPerson(p: Provider): string | undefined {
  if (p.authenticationFlow === 'REDIRECT' || (p.credentialsType === 'THIRD_PARTY_APP' && p.type !== 'TEST'))
    return `${p.name} logs in on the bank's own ${p.authenticationFlow === 'REDIRECT' ? 'web page (a redirect)' : 'app'}, which needs a person`;
  return undefined;
}

/** Field values for the provider's own fields: the sandbox's test identity for each pattern. */
export function smokeFields(p: Provider, onSandbox: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of p.fields ?? []) {
    if (!f.name || f.immutable) continue;
    if (f.name === 'password' || f.sensitive) out[f.name] = 'test-password';
    else if (onSandbox && f.pattern && new RegExp(`^(?:${f.pattern})$`).test('199001011234'))
      out[f.name] = '199001011234';
    else out[f.name] = 'test-user';
  }
  return out;
}

export interface SmokeResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  detail: string;
}

interface State {
  userId?: string;
  credentialsId?: string;
  accountIds: string[];
  connectorUser?: { externalId: string; token: string };
  webhookId?: string;
}

/** What every check works with: the client, the token manager, the options and what earlier checks made. */
interface Run {
  api: ApiClient;
  tokens: TokenManager;
  o: SmokeOptions;
  s: State;
  /** The same client calling with the test user's token (set by "grant and exchange"). */
  asUser: ApiClient;
  suffix: string;
}

interface Check {
  name: string;
  needs?: Array<keyof State>;
  skip?: (r: Run) => string | undefined;
  run: (r: Run) => Promise<string>;
}

export class SmokeFailure extends Error {}

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new SmokeFailure(message);
}

const USER_SCOPES = [
  'accounts:read',
  'balances:read',
  'credentials:read',
  'credentials:refresh',
  'credentials:write',
  'provider-consents:read',
  'providers:read',
  'transactions:read',
  'user:delete',
  'user:read',
];

/** At most this many pages are read in one check. */
const MAX_PAGES = 200;

/** Every transaction of the filter, page after page, as the api pager gives them. */
async function allTransactions(api: ApiClient, f: TransactionFilter) {
  const out = [];
  let pages = 0;
  for await (const page of transactionPages(api, f, { all: true })) {
    out.push(...page.transactions);
    if (++pages >= MAX_PAGES) break;
  }
  return { transactions: out, pages };
}

async function checkClientToken(r: Run): Promise<string> {
  const t = await r.tokens.requestClientToken(['user:create', 'authorization:grant']);
  assert(t.access_token, 'no access token');
  return `scope ${t.scope ?? '?'}, expires in ${t.expires_in ?? '?'} s`;
}

async function checkCreateUser(r: Run): Promise<string> {
  const u = await createUser(r.api, { market: r.o.market });
  assert(u?.user_id, 'user/create answered without a user_id');
  r.s.userId = u.user_id;
  return `user ${u.user_id}`;
}

async function checkGrant(r: Run): Promise<string> {
  const token = await r.tokens.userToken({ userId: r.s.userId }, USER_SCOPES);
  r.asUser = r.api.as({ token });
  return `user token with ${USER_SCOPES.length} scopes`;
}

async function checkProviders(r: Run): Promise<string> {
  const list = await listProviders(r.asUser, {
    market: r.o.market,
    includeTestProviders: true,
    excludeNonTestProviders: true,
  });
  assert(
    list.some((p) => p.name === r.o.provider),
    `test provider ${r.o.provider} is not listed for market ${r.o.market}`,
  );
  return `${list.length} test providers, ${r.o.provider} among them`;
}

async function checkConnect(r: Run): Promise<string> {
  const created = await createCredentials(r.asUser, {
    providerName: r.o.provider,
    fields: r.o.fields ?? { username: 'test-user', password: 'test-password' },
  });
  assert(created?.id, 'no credentials id');
  r.s.credentialsId = created.id;
  const deadline = r.o.now() + r.o.connectTimeoutS * 1000;
  let seen = 0;
  let delay = 250;
  for (;;) {
    const c = await getCredentials(r.asUser, created.id);
    if (c.status === 'UPDATED') return `credentials ${created.id} UPDATED`;
    if (FAILED_STATUSES.has(c.status))
      throw new SmokeFailure(`credentials ended in ${c.status}${c.statusPayload ? `: ${c.statusPayload}` : ''}`);
    const updated = Number(c.statusUpdated ?? 0);
    if (c.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' && updated > seen) {
      seen = updated;
      const round = parseSupplemental(c.supplementalInformation);
      const fields = round.kind === 'fields' ? round.fields : [];
      const information = Object.fromEntries(
        fields.filter((f) => f.name).map((f) => [f.name, f.checkbox ? 'true' : '1234']),
      );
      await supplementInformation(r.asUser, created.id, information);
    }
    if (r.o.now() > deadline) throw new SmokeFailure(`still ${c.status} after ${r.o.connectTimeoutS} s`);
    await r.o.sleep(delay);
    delay = Math.min(delay * 2, 2000);
  }
}

async function checkAccounts(r: Run): Promise<string> {
  const accounts = await listAccounts(r.asUser);
  assert(accounts.length > 0, 'no accounts after the refresh');
  r.s.accountIds = accounts.map((a) => a.id);
  return `${accounts.length} accounts (${[...new Set(accounts.map((a) => a.type))].join(', ')})`;
}

async function checkPaging(r: Run): Promise<string> {
  const { transactions, pages } = await allTransactions(r.asUser, { pageSize: 50 });
  const ids = new Set<string>();
  for (const t of transactions) {
    assert(!ids.has(t.id), `transaction ${t.id} came twice`);
    decimalString(t.amount.value.unscaledValue, t.amount.value.scale);
    ids.add(t.id);
  }
  assert(ids.size > 0, 'no transactions');
  return `${ids.size} transactions over ${pages} pages, no duplicates`;
}

async function checkConsents(r: Run): Promise<string> {
  const mine = (await listProviderConsents(r.asUser)).find((c) => c.credentialsId === r.s.credentialsId);
  assert(mine, `no consent for credentials ${r.s.credentialsId}`);
  assert(mine.status === 'UPDATED', `consent status ${mine.status}`);
  return `consent ${mine.status} covering ${mine.accountIds?.length ?? 0} accounts`;
}

async function checkConnectorUser(r: Run): Promise<string> {
  const externalId = `smoke-${r.suffix}`;
  const token = randomBytes(18).toString('base64url');
  await createConnectorUser(r.api, { externalId, token, market: r.o.market });
  r.s.connectorUser = { externalId, token };
  await pushAccounts(r.api, externalId, {
    accounts: [
      {
        externalId: 'smoke-acc-1',
        name: 'Smoke checking',
        number: '1234-1',
        balance: new ExactNumber('100.5'),
        type: 'CHECKING',
      },
    ],
  });
  return `user ${externalId} with 1 account`;
}

/** A REAL_TIME container of these transactions for the smoke account, exact as text. */
function container(balance: string, transactions: unknown[]): string {
  return writeJson({
    type: 'REAL_TIME',
    transactionAccounts: [{ externalId: 'smoke-acc-1', balance: new ExactNumber(balance), transactions }],
  });
}

async function checkPushAndReadBack(r: Run): Promise<string> {
  const cu = r.s.connectorUser!;
  const day = 24 * 60 * 60 * 1000;
  const base = r.o.now() - 10 * day;
  const pushed = Array.from({ length: 25 }, (_, i) => ({
    externalId: `smoke-tx-${i}`,
    amount: `${i % 2 ? '' : '-'}${(i * 7) % 90}.${String((i * 13) % 100).padStart(2, '0')}`,
  }));
  const transactions = pushed.map((p, i) => ({
    externalId: p.externalId,
    amount: new ExactNumber(p.amount),
    date: base + i * 3600_000,
    description: `Smoke ${i}`,
    type: 'DEFAULT',
    pending: false,
  }));
  await ingestTransactions(r.api, cu.externalId, container('100.5', transactions));
  const asPushed = r.api.as({ basic: `${cu.externalId}:${cu.token}` });
  const read = await allTransactions(asPushed, {
    pageSize: 100,
    from: new Date(base - day).toISOString().slice(0, 10),
  });
  const got = read.transactions.map((t) => decimalString(t.amount.value.unscaledValue, t.amount.value.scale));
  const want = addDecimals(pushed.map((p) => p.amount));
  const sum = got.length ? addDecimals(got) : '0';
  assert(got.length === pushed.length, `read back ${got.length} transactions, pushed ${pushed.length}`);
  const diff = addDecimals([sum, want.startsWith('-') ? want.slice(1) : `-${want}`]);
  assert(/^-?0(\.0+)?$/.test(diff), `sum ${sum} differs from the pushed ${want}`);
  return `${got.length} transactions read back with HTTP Basic, sum ${sum}`;
}

/** A local receiver that keeps the events whose webhook.secret (webHook.secret in spec 6) is right. */
async function receiver(secret: string): Promise<{ server: Server; url: string; received: Array<{ event: string }> }> {
  const received: Array<{ event: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
      if (body.length > 1_000_000) req.destroy();
    });
    req.on('end', () => {
      try {
        const payload = JSON.parse(body) as { event: string };
        const ok = secretsEqual(secret, String(v1HookOf(payload)?.hook.secret ?? ''));
        res.writeHead(ok ? 200 : 401).end();
        if (ok) received.push(payload);
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}/smoke`, received };
}

async function checkWebhook(r: Run): Promise<string> {
  const secret = randomBytes(16).toString('hex');
  const { server, url, received } = await receiver(secret);
  try {
    const created = await createConnectorWebhook(r.api, { url, secret, events: ['transaction:create'] });
    r.s.webhookId = created.id;
    assert(r.s.webhookId, 'the registered webhook is not listed');
    const hook = {
      externalId: `smoke-hook-${r.suffix}`,
      amount: new ExactNumber('-1'),
      date: r.o.now(),
      description: 'Smoke webhook',
      type: 'DEFAULT',
    };
    await ingestTransactions(r.api, r.s.connectorUser!.externalId, container('99.5', [hook]));
    const deadline = r.o.now() + 15_000;
    const delivered = () => received.some((e) => e.event === 'transaction:create');
    while (!delivered() && r.o.now() < deadline) await r.o.sleep(100);
    assert(delivered(), 'no transaction:create delivered within 15 s');
    await deleteConnectorWebhook(r.api, r.s.webhookId);
    r.s.webhookId = undefined;
    return `transaction:create delivered with the right secret; registration removed`;
  } finally {
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }
}

export const CHECKS: Check[] = [
  { name: 'client token', run: checkClientToken },
  { name: 'create user', run: checkCreateUser },
  { name: 'grant and exchange', needs: ['userId'], run: checkGrant },
  { name: 'providers', needs: ['userId'], run: checkProviders },
  { name: 'connect test provider', needs: ['userId'], run: checkConnect },
  { name: 'accounts', needs: ['credentialsId'], run: checkAccounts },
  { name: 'transactions paging', needs: ['credentialsId'], run: checkPaging },
  { name: 'consents', needs: ['credentialsId'], run: checkConsents },
  { name: 'connector user with accounts', run: checkConnectorUser },
  { name: 'push and read back', needs: ['connectorUser'], run: checkPushAndReadBack },
  {
    name: 'webhook delivered',
    needs: ['connectorUser'],
    skip: (r) =>
      r.o.localWebhooks ? undefined : 'needs a receiver the service can reach; runs against a local sandbox',
    run: checkWebhook,
  },
];

/** Removes what the run made: the webhook, the connector user, the test user and its cached tokens. */
async function cleanup(r: Run): Promise<SmokeResult> {
  const { s, o } = r;
  if (o.keep)
    return {
      name: 'cleanup',
      status: 'skipped',
      ms: 0,
      detail: `--keep: user ${s.userId ?? '-'}, connector user ${s.connectorUser?.externalId ?? '-'} left in place`,
    };
  // nothing made, nothing removed: not a check that passed
  if (!s.webhookId && !s.connectorUser && !s.userId)
    return { name: 'cleanup', status: 'skipped', ms: 0, detail: 'nothing was created' };
  const started = o.now();
  const problems: string[] = [];
  const attempt = (p: Promise<unknown>) => p.catch((e: Error) => problems.push(e.message));
  if (s.webhookId) await attempt(deleteConnectorWebhook(r.api, s.webhookId));
  if (s.connectorUser) await attempt(deleteConnectorUser(r.api, s.connectorUser.externalId));
  if (s.userId) {
    const userId = s.userId;
    // a failed "grant and exchange" left no user token: ask for one that may delete it (the user
    // was left on the service, and cleanup said "test users removed")
    const asUser =
      r.asUser !== r.api
        ? Promise.resolve(r.asUser)
        : r.tokens.userToken({ userId }, ['user:delete']).then((token) => r.api.as({ token }));
    await asUser.then(deleteUser).catch((e: Error) => problems.push(`user ${userId} left in place: ${e.message}`));
  }
  // the tokens cached for the test user would outlive it
  if (s.userId) r.tokens.forgetUser({ userId: s.userId });
  return {
    name: 'cleanup',
    status: problems.length ? 'failed' : 'passed',
    ms: o.now() - started,
    detail: problems.length ? problems.join('; ') : 'test users removed',
  };
}

export async function runSmoke(
  api: ApiClient,
  tokens: TokenManager,
  o: SmokeOptions,
  onResult: (r: SmokeResult) => void = () => undefined,
): Promise<SmokeResult[]> {
  const r: Run = { api, tokens, o, s: { accountIds: [] }, asUser: api, suffix: randomBytes(4).toString('hex') };
  const results: SmokeResult[] = [];
  const record = (result: SmokeResult) => {
    results.push(result);
    onResult(result);
  };
  for (const c of CHECKS) {
    const missing = (c.needs ?? []).filter((k) => r.s[k] === undefined);
    const skipReason = missing.length ? `skipped: an earlier check did not provide ${missing.join(', ')}` : c.skip?.(r);
    if (skipReason) {
      record({ name: c.name, status: 'skipped', ms: 0, detail: skipReason });
      continue;
    }
    const started = o.now();
    try {
      const detail = await c.run(r);
      record({ name: c.name, status: 'passed', ms: o.now() - started, detail });
    } catch (err) {
      record({ name: c.name, status: 'failed', ms: o.now() - started, detail: (err as Error).message });
    }
  }
  record(await cleanup(r));
  return results;
}

export function junitXml(results: SmokeResult[], suite = 'bankctl smoke'): string {
  const esc = (s: string) =>
    s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
  const failures = results.filter((r) => r.status === 'failed').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  const total = results.reduce((a, r) => a + r.ms, 0) / 1000;
  const cases = results
    .map((r) => {
      const inner =
        r.status === 'failed'
          ? `<failure message="${esc(r.detail)}">${esc(r.detail)}</failure>`
          : r.status === 'skipped'
            ? `<skipped message="${esc(r.detail)}"/>`
            : '';
      return `    <testcase classname="smoke" name="${esc(r.name)}" time="${(r.ms / 1000).toFixed(3)}">${inner}</testcase>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${esc(suite)}" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${total.toFixed(3)}">\n${cases}\n  </testsuite>\n</testsuites>\n`;
}
