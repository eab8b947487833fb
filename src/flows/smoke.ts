// The CI smoke suite: a named list of checks over the whole journey, each timed. It uses only
// documented endpoints and test providers and cleans up after itself, so the same suite runs
// against the sandbox and against the real service.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { ApiClient } from '../api/client.js';
import type { Auth } from '../http/client.js';

interface V2Transaction {
  id: string;
  amount: { value: { scale: string; unscaledValue: string } };
}
import type { TokenManager } from '../auth/tokens.js';
import { addDecimals, decimalString } from '../output/money.js';
import { secretsEqual } from '../secrets.js';
import { parseSupplemental } from './supplemental.js';
import { FAILED_STATUSES } from '../api/credentials.js';

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

interface Check {
  name: string;
  needs?: Array<keyof State>;
  skip?: () => string | undefined;
  run: () => Promise<string>;
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

export async function runSmoke(
  api: ApiClient,
  tokens: TokenManager,
  o: SmokeOptions,
  onResult: (r: SmokeResult) => void = () => undefined,
): Promise<SmokeResult[]> {
  const s: State = { accountIds: [] };
  const asUser = { token: '' };
  const userCall = <T>(
    method: string,
    path: string,
    extra: { query?: Record<string, string | string[]>; json?: unknown } = {},
  ) =>
    api.http
      .request<T>({ method, path, ...extra, auth: { scheme: 'Bearer', token: asUser.token } })
      .then((r) => r.data);
  /** /data/v2/transactions page after page, following nextPageToken (at most 200 pages). */
  async function* transactionPages(auth: Auth, query: Record<string, string>): AsyncGenerator<V2Transaction[]> {
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await api.http.request<{ transactions?: V2Transaction[]; nextPageToken?: string }>({
        method: 'GET',
        path: '/data/v2/transactions',
        query: { ...query, ...(pageToken ? { pageToken } : {}) },
        auth,
      });
      yield page.data.transactions ?? [];
      pageToken = page.data.nextPageToken || undefined;
    } while (pageToken && ++pages < 200);
  }
  const suffix = randomBytes(4).toString('hex');
  const pushed: Array<{ externalId: string; amount: string }> = [];

  const checks: Check[] = [
    {
      name: 'client token',
      run: async () => {
        const t = await tokens.requestClientToken(['user:create', 'authorization:grant']);
        assert(t.access_token, 'no access token');
        return `scope ${t.scope ?? '?'}, expires in ${t.expires_in ?? '?'} s`;
      },
    },
    {
      name: 'create user',
      run: async () => {
        const r = await api.data<{ user_id: string }>({
          method: 'POST',
          path: '/api/v1/user/create',
          json: { market: o.market },
        });
        assert(r?.user_id, 'user/create answered without a user_id');
        s.userId = r.user_id;
        return `user ${r.user_id}`;
      },
    },
    {
      name: 'grant and exchange',
      needs: ['userId'],
      run: async () => {
        asUser.token = await tokens.userToken({ userId: s.userId }, USER_SCOPES);
        return `user token with ${USER_SCOPES.length} scopes`;
      },
    },
    {
      name: 'providers',
      needs: ['userId'],
      run: async () => {
        const r = await userCall<{ providers?: Array<{ name: string; type?: string }> }>('GET', '/api/v1/providers', {
          query: { market: o.market, includeTestProviders: 'true', excludeNonTestProviders: 'true' },
        });
        const list = Array.isArray(r) ? (r as Array<{ name: string }>) : (r?.providers ?? []);
        assert(
          list.some((p) => p.name === o.provider),
          `test provider ${o.provider} is not listed for market ${o.market}`,
        );
        return `${list.length} test providers, ${o.provider} among them`;
      },
    },
    {
      name: 'connect test provider',
      needs: ['userId'],
      run: async () => {
        const created = await userCall<{ id: string }>('POST', '/api/v1/credentials', {
          json: { providerName: o.provider, fields: { username: 'test-user', password: 'test-password' } },
        });
        assert(created?.id, 'no credentials id');
        s.credentialsId = created.id;
        const deadline = o.now() + o.connectTimeoutS * 1000;
        let seen = 0;
        let delay = 250;
        for (;;) {
          const c = await userCall<{
            status: string;
            statusUpdated?: number;
            supplementalInformation?: unknown;
            statusPayload?: string;
          }>('GET', `/api/v1/credentials/${created.id}`);
          if (c.status === 'UPDATED') return `credentials ${created.id} UPDATED`;
          if (FAILED_STATUSES.has(c.status)) {
            throw new SmokeFailure(`credentials ended in ${c.status}${c.statusPayload ? `: ${c.statusPayload}` : ''}`);
          }
          if (c.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' && (c.statusUpdated ?? 0) > seen) {
            seen = c.statusUpdated ?? 0;
            const round = parseSupplemental(c.supplementalInformation);
            const fields = round.kind === 'fields' ? round.fields : [];
            const information = Object.fromEntries(
              fields.filter((f) => f.name).map((f) => [f.name!, f.checkbox ? 'true' : '1234']),
            );
            await userCall('POST', `/api/v1/credentials/${created.id}/supplemental-information`, {
              json: { information },
            });
          }
          if (o.now() > deadline) throw new SmokeFailure(`still ${c.status} after ${o.connectTimeoutS} s`);
          await o.sleep(delay);
          delay = Math.min(delay * 2, 2000);
        }
      },
    },
    {
      name: 'accounts',
      needs: ['credentialsId'],
      run: async () => {
        const r = await userCall<{ accounts: Array<{ id: string; type: string }> }>('GET', '/api/v1/accounts/list');
        assert(Array.isArray(r?.accounts) && r.accounts.length > 0, 'no accounts after the refresh');
        s.accountIds = r.accounts.map((a) => a.id);
        return `${r.accounts.length} accounts (${[...new Set(r.accounts.map((a) => a.type))].join(', ')})`;
      },
    },
    {
      name: 'transactions paging',
      needs: ['credentialsId'],
      run: async () => {
        const ids = new Set<string>();
        let pages = 0;
        for await (const page of transactionPages({ scheme: 'Bearer', token: asUser.token }, { pageSize: '50' })) {
          for (const t of page) {
            assert(!ids.has(t.id), `transaction ${t.id} came twice`);
            decimalString(t.amount.value.unscaledValue, t.amount.value.scale);
            ids.add(t.id);
          }
          pages++;
        }
        assert(ids.size > 0, 'no transactions');
        return `${ids.size} transactions over ${pages} pages, no duplicates`;
      },
    },
    {
      name: 'consents',
      needs: ['credentialsId'],
      run: async () => {
        const r = await userCall<{
          providerConsents: Array<{ credentialsId: string; status: string; accountIds?: string[] }>;
        }>('GET', '/api/v1/provider-consents');
        const mine = r?.providerConsents?.find((c) => c.credentialsId === s.credentialsId);
        assert(mine, `no consent for credentials ${s.credentialsId}`);
        assert(mine.status === 'UPDATED', `consent status ${mine.status}`);
        return `consent ${mine.status} covering ${mine.accountIds?.length ?? 0} accounts`;
      },
    },
    {
      name: 'connector user with accounts',
      run: async () => {
        const externalId = `smoke-${suffix}`;
        const token = randomBytes(18).toString('base64url');
        await api.call({ method: 'POST', path: '/connector/users', json: { externalId, token, market: o.market } });
        s.connectorUser = { externalId, token };
        await api.call({
          method: 'POST',
          path: `/connector/users/${encodeURIComponent(externalId)}/accounts`,
          json: {
            accounts: [
              { externalId: 'smoke-acc-1', name: 'Smoke checking', number: '1234-1', balance: 100.5, type: 'CHECKING' },
            ],
          },
        });
        return `user ${externalId} with 1 account`;
      },
    },
    {
      name: 'push and read back',
      needs: ['connectorUser'],
      run: async () => {
        const cu = s.connectorUser!;
        const day = 24 * 60 * 60 * 1000;
        const base = o.now() - 10 * day;
        const transactions = Array.from({ length: 25 }, (_, i) => {
          const amount = `${i % 2 ? '' : '-'}${(i * 7) % 90}.${String((i * 13) % 100).padStart(2, '0')}`;
          pushed.push({ externalId: `smoke-tx-${i}`, amount });
          return {
            externalId: `smoke-tx-${i}`,
            amount: Number(amount),
            date: base + i * 3600_000,
            description: `Smoke ${i}`,
            type: 'DEFAULT',
            pending: false,
          };
        });
        await api.call({
          method: 'POST',
          path: `/connector/users/${encodeURIComponent(cu.externalId)}/transactions`,
          json: {
            type: 'REAL_TIME',
            transactionAccounts: [{ externalId: 'smoke-acc-1', balance: 100.5, transactions }],
          },
          idempotent: true,
        });
        const got: string[] = [];
        const basic: Auth = { scheme: 'Basic', username: cu.externalId, password: cu.token };
        for await (const page of transactionPages(basic, {
          pageSize: '100',
          bookedDateGte: new Date(base - day).toISOString().slice(0, 10),
        })) {
          for (const t of page) got.push(decimalString(t.amount.value.unscaledValue, t.amount.value.scale));
        }
        const want = addDecimals(pushed.map((p) => p.amount));
        const sum = got.length ? addDecimals(got) : '0';
        assert(got.length === pushed.length, `read back ${got.length} transactions, pushed ${pushed.length}`);
        const diff = addDecimals([sum, want.startsWith('-') ? want.slice(1) : `-${want}`]);
        assert(/^-?0(\.0+)?$/.test(diff), `sum ${sum} differs from the pushed ${want}`);
        return `${got.length} transactions read back with HTTP Basic, sum ${sum}`;
      },
    },
    {
      name: 'webhook delivered',
      needs: ['connectorUser'],
      skip: () =>
        o.localWebhooks ? undefined : 'needs a receiver the service can reach; runs against a local sandbox',
      run: async () => {
        const secret = randomBytes(16).toString('hex');
        const received: Array<{ event: string }> = [];
        const server: Server = createServer((req, res) => {
          let body = '';
          req.on('data', (c) => {
            body += c;
            if (body.length > 1_000_000) req.destroy();
          });
          req.on('end', () => {
            try {
              const payload = JSON.parse(body) as { event: string; webHook?: { secret?: string } };
              const ok = secretsEqual(secret, String(payload.webHook?.secret ?? ''));
              res.writeHead(ok ? 200 : 401).end();
              if (ok) received.push(payload);
            } catch {
              res.writeHead(400).end();
            }
          });
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const port = (server.address() as { port: number }).port;
        try {
          const created = await api.data<{ id?: string } | undefined>({
            method: 'POST',
            path: '/connector/webhooks',
            json: { url: `http://127.0.0.1:${port}/smoke`, secret, events: ['transaction:create'] },
          });
          const list = await api.data<unknown>({ method: 'GET', path: '/connector/webhooks' });
          const arr = (Array.isArray(list) ? list : ((list as { webhooks?: unknown[] })?.webhooks ?? [])) as Array<{
            id: string;
            url: string;
          }>;
          s.webhookId = created?.id ?? arr.find((w) => w.url === `http://127.0.0.1:${port}/smoke`)?.id;
          assert(s.webhookId, 'the registered webhook is not listed');
          const cu = s.connectorUser!;
          await api.call({
            method: 'POST',
            path: `/connector/users/${encodeURIComponent(cu.externalId)}/transactions`,
            json: {
              type: 'REAL_TIME',
              transactionAccounts: [
                {
                  externalId: 'smoke-acc-1',
                  balance: 99.5,
                  transactions: [
                    {
                      externalId: `smoke-hook-${suffix}`,
                      amount: -1,
                      date: o.now(),
                      description: 'Smoke webhook',
                      type: 'DEFAULT',
                    },
                  ],
                },
              ],
            },
            idempotent: true,
          });
          const deadline = o.now() + 15_000;
          while (!received.some((e) => e.event === 'transaction:create') && o.now() < deadline) await o.sleep(100);
          assert(
            received.some((e) => e.event === 'transaction:create'),
            'no transaction:create delivered within 15 s',
          );
          await api.call({ method: 'DELETE', path: `/connector/webhooks/${encodeURIComponent(s.webhookId!)}` });
          s.webhookId = undefined;
          return `transaction:create delivered with the right secret; registration removed`;
        } finally {
          await new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          });
        }
      },
    },
  ];

  const results: SmokeResult[] = [];
  const record = (r: SmokeResult) => {
    results.push(r);
    onResult(r);
  };
  for (const c of checks) {
    const missing = (c.needs ?? []).filter((k) => s[k] === undefined);
    const skipReason = missing.length ? `skipped: an earlier check did not provide ${missing.join(', ')}` : c.skip?.();
    if (skipReason) {
      record({ name: c.name, status: 'skipped', ms: 0, detail: skipReason });
      continue;
    }
    const started = o.now();
    try {
      const detail = await c.run();
      record({ name: c.name, status: 'passed', ms: o.now() - started, detail });
    } catch (err) {
      record({ name: c.name, status: 'failed', ms: o.now() - started, detail: (err as Error).message });
    }
  }

  // cleanup, reported like a check
  if (!o.keep) {
    const started = o.now();
    const problems: string[] = [];
    if (s.webhookId)
      await api
        .call({ method: 'DELETE', path: `/connector/webhooks/${encodeURIComponent(s.webhookId)}` })
        .catch((e: Error) => problems.push(e.message));
    if (s.connectorUser)
      await api
        .call({ method: 'DELETE', path: `/connector/users/${encodeURIComponent(s.connectorUser.externalId)}` })
        .catch((e: Error) => problems.push(e.message));
    if (s.userId && asUser.token)
      await userCall('POST', '/api/v1/user/delete').catch((e: Error) => problems.push(e.message));
    record({
      name: 'cleanup',
      status: problems.length ? 'failed' : 'passed',
      ms: o.now() - started,
      detail: problems.length ? problems.join('; ') : 'test users removed',
    });
  } else {
    record({
      name: 'cleanup',
      status: 'skipped',
      ms: 0,
      detail: `--keep: user ${s.userId ?? '-'}, connector user ${s.connectorUser?.externalId ?? '-'} left in place`,
    });
  }
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
