// The contract: every endpoint once, as data (endpoints/<area>.ts), and the one lookup both the
// client and the sandbox use. Adding an endpoint is one entry in its area's file.
import { compileTemplate, segmentCount, type Endpoint } from './endpoint.js';
import { accounts, balanceRefresh, transactions } from './endpoints/accounts.js';
import { connector } from './endpoints/connector.js';
import { consents, credentials } from './endpoints/credentials.js';
import { budgets, calendar, insights, reports, search, statistics, transfers } from './endpoints/finance.js';
import { general, oauth, users } from './endpoints/oauth.js';
import { providers } from './endpoints/providers.js';
import { reads } from './endpoints/reads.js';
import { link, sandboxAdmin } from './endpoints/sandbox.js';
import { hooksApi, hooksAuthorization } from './endpoints/webhooks.js';
import { webhookEndpoints } from './endpoints/events.js';
import { bench } from './endpoints/bench.js';
import { dataV2 } from './endpoints/data-v2.js';
import { consentsV2 } from './endpoints/connectivity-v2.js';
import { linkSession, user } from './endpoints/user.js';

export * from './endpoint.js';
export { ALL_SCOPES, LINK_ACTOR_CLIENT_ID } from './scopes.js';

/** Every endpoint by area: `EP.accounts.list`, `EP.connector.ingestTransactions`, ... */
export const EP = {
  oauth,
  users,
  general,
  providers,
  credentials,
  consents,
  accounts,
  balanceRefresh,
  transactions,
  budgets,
  calendar,
  statistics,
  search,
  insights,
  transfers,
  reports,
  reads,
  hooks: hooksApi,
  authorizationHooks: hooksAuthorization,
  connector,
  sandbox: sandboxAdmin,
  link,
  webhookEndpoints,
  bench,
  dataV2,
  consentsV2,
  user,
  linkSession,
} as const;

export const ENDPOINTS: readonly Endpoint[] = Object.values(EP).flatMap((area) => Object.values(area) as Endpoint[]);

/** The endpoints the real service has (the sandbox's own routes left out). */
export const SERVICE_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((e) => !e.sandboxOnly);

export interface Compiled {
  endpoint: Endpoint;
  regex: RegExp;
  /** Literal segments: more wins (/credentials/list before /credentials/{id}). */
  literals: number;
}

/** What a lookup finds: the entry, and its path parameters' values from match[1] on. */
export interface Found {
  readonly endpoint: Endpoint;
  readonly match: readonly string[];
}

/** The endpoints of a table compiled for matching, bucketed by segment count, literal-first. */
export class EndpointIndex {
  /** By segment count: every method's entries (for a 405). */
  private readonly bySegments: Compiled[][] = [];
  /** By method, then segment count: what a lookup searches (no string built per request). */
  private readonly byMethod = new Map<string, Compiled[][]>();
  /**
   * By method, then path: the entries without a parameter, each with the answer find() gives for
   * it, made once. A static path has every segment literal, so the bucket's literal-first order
   * would try it before any template of its length: looking it up first answers the same, without
   * a regular expression run or a match array per request.
   */
  private readonly statics = new Map<string, Map<string, Found>>();

  constructor(readonly table: readonly Endpoint[]) {
    const ids = new Set<string>();
    const routes = new Set<string>();
    for (const endpoint of table) {
      if (ids.has(endpoint.id)) throw new Error(`endpoint id ${endpoint.id} appears twice`);
      const route = `${endpoint.method} ${endpoint.path}`;
      if (routes.has(route)) throw new Error(`${route} is declared twice`);
      ids.add(endpoint.id);
      routes.add(route);
      const c: Compiled = {
        endpoint,
        regex: compileTemplate(endpoint.path),
        literals: endpoint.path.split('/').filter((s) => s && !s.startsWith('{')).length,
      };
      const n = segmentCount(endpoint.path);
      add(this.bySegments, n, c);
      let m = this.byMethod.get(endpoint.method);
      if (!m) this.byMethod.set(endpoint.method, (m = []));
      add(m, n, c);
      if (!endpoint.path.includes('{')) {
        let byPath = this.statics.get(endpoint.method);
        if (!byPath) this.statics.set(endpoint.method, (byPath = new Map()));
        byPath.set(endpoint.path, { endpoint, match: [endpoint.path] });
      }
    }
  }

  /** The entry for a concrete method and path (without its query), or undefined. HEAD finds GET. */
  find(method: string, path: string): Found | undefined {
    const m = method === 'HEAD' ? 'GET' : method;
    const known = this.statics.get(m)?.get(path);
    if (known) return known;
    const list = this.byMethod.get(m)?.[segmentCount(path)];
    if (!list) return undefined;
    for (const c of list) {
      const match = c.regex.exec(path);
      if (match) return { endpoint: c.endpoint, match };
    }
    return undefined;
  }

  /**
   * The methods a path is served under, as an Allow header lists them (HEAD with GET): what a 405
   * answers, since RFC 9110 (15.5.6) has every 405 name them. Empty for a path no entry has.
   */
  methodsFor(path: string): string[] {
    const out: string[] = [];
    for (const m of this.byMethod.keys()) if (this.find(m, path)) out.push(m);
    if (out.includes('GET')) out.push('HEAD');
    return out.sort();
  }

  /** Whether some entry has this path under another method (a 405 rather than a 404). */
  hasPath(path: string): boolean {
    return (this.bySegments[segmentCount(path)] ?? []).some((c) => c.regex.test(path));
  }
}

function add(lists: Compiled[][], n: number, c: Compiled): void {
  const list = (lists[n] ??= []);
  list.push(c);
  list.sort((a, b) => b.literals - a.literals);
}

let index: EndpointIndex | undefined;

/** The table's entry for a concrete method and path (a query string is ignored). */
export function endpointFor(method: string, path: string): Endpoint | undefined {
  index ??= new EndpointIndex(ENDPOINTS);
  const q = path.indexOf('?');
  return index.find(method.toUpperCase(), q >= 0 ? path.slice(0, q) : path)?.endpoint;
}

/** The scope a client asks for to call this endpoint: the first listed (none when it needs none). */
export function scopeFor(method: string, path: string): string[] {
  const ep = endpointFor(method, path);
  return ep && ep.scopes.length > 0 ? [ep.scopes[0]!] : [];
}
