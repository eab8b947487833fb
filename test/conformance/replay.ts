// A loopback replay server: it answers with the vendor reference's response examples, byte for byte
// as transcribed in test/fixtures/reference/examples/ (each file names its source page and section in
// its `source` field), and with the real SDK payloads of ../shared/reference/realworld/. It is the
// closest thing to the real service that can run here: the conformance tests spawn bin/bankctl.js
// against it and against the sandbox, and hold both to the same answers.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readJson, writeJson } from '../../src/contract/exact-json.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** ../shared/reference, as test/helpers/requires.ts finds it (BANKCTL_SHARED_DIR overrides it). */
const SHARED_REFERENCE = join(process.env.BANKCTL_SHARED_DIR ?? join(ROOT, '..', 'shared'), 'reference');

export const EXAMPLES_DIR = join(ROOT, 'test', 'fixtures', 'reference', 'examples');

export interface Example {
  source: string | string[];
  status: number;
  contentType?: string;
  body: unknown;
}

/** One example file of the reference (examples/<name>.json). */
export function example(name: string): Example {
  // read exactly: 22917.0 stays 22917.0 on the wire, as the reference writes it
  return readJson<Example>(readFileSync(join(EXAMPLES_DIR, `${name}.json`), 'utf8'));
}

export function exampleNames(): string[] {
  return readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
}

/** A realworld file's text (../shared/reference/realworld/<name>), or undefined when it is not there. */
export function realworld(name: string): string | undefined {
  const path = join(SHARED_REFERENCE, 'realworld', name);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The X-Request-ID the replay server answered with. */
  requestId: string;
}

/** What the server answers: a status, a body (a string is sent as is), headers. */
export interface Answer {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Route = [method: string, path: RegExp, answer: (m: RegExpExecArray, seen: Seen) => Answer];

const ex = (name: string): (() => Answer) => {
  return () => {
    const e = example(name);
    return { status: e.status, body: e.body, contentType: e.contentType };
  };
};

/** The credentials payloads of the realworld folder, served as GET /api/v1/credentials/{name}. */
export const REALWORLD_CREDENTIALS: Record<string, string> = {
  cardreader: 'composed/credentials.cardreader.awaiting-supplemental.json',
  thirdparty: 'composed/credentials.thirdparty.awaiting-tpa.json',
  autostart: 'composed/credentials.autostart.awaiting-mobile-bankid.json',
  iosdemo: 'composed/credentials.ios-demo-app.awaiting-tpa.json',
};

/**
 * The reference's endpoints as the replay serves them (first match wins). The realworld credentials
 * (GET /api/v1/credentials/{cardreader|thirdparty|autostart|iosdemo}) stay in their round; after a
 * refresh (POST .../refresh) they end: the card reader once answered (POST .../supplemental-information),
 * the others on the next GET, as the reference's UPDATED credentials, so a walker ends.
 */
export function referenceRoutes(): Route[] {
  /** GETs since a refresh of each realworld id; undefined when it was not refreshed. */
  const since = new Map<string, number>();
  const answered = new Set<string>();
  return [
    ['POST', /^\/api\/v1\/oauth\/token$/, ex('POST__api_v1_oauth_token')],
    [
      'POST',
      /^\/api\/v1\/oauth\/authorization-grant\/delegate$/,
      ex('POST__api_v1_oauth_authorization-grant_delegate'),
    ],
    ['POST', /^\/api\/v1\/oauth\/authorization-grant$/, ex('POST__api_v1_oauth_authorization-grant')],
    ['POST', /^\/api\/v1\/user\/create$/, ex('POST__api_v1_user_create')],
    ['GET', /^\/api\/v1\/accounts\/list$/, ex('GET__api_v1_accounts_list')],
    ['GET', /^\/api\/v1\/accounts\/[^/]+\/balances$/, ex('GET__api_v1_accounts_id_balances')],
    ['GET', /^\/api\/v1\/identities$/, ex('GET__api_v1_identities')],
    ['GET', /^\/api\/v1\/investments$/, ex('GET__api_v1_investments')],
    ['GET', /^\/api\/v1\/loans$/, ex('GET__api_v1_loans')],
    ['GET', /^\/api\/v1\/provider-consents$/, ex('GET__api_v1_provider-consents')],
    ['GET', /^\/api\/v1\/providers\/markets$/, ex('GET__api_v1_providers_markets')],
    ['GET', /^\/api\/v1\/providers\/[A-Z]{2}$/, ex('GET__api_v1_providers_market')],
    [
      'GET',
      /^\/api\/v1\/providers$/,
      (_m, seen) => {
        const name = new URL(seen.url, 'http://x').searchParams.get('name');
        if (name !== null && name !== 'se-bink-thirdpartyapp') return { status: 200, body: { providers: [] } };
        return ex(name === null ? 'GET__api_v1_providers' : 'GET__api_v1_providers_name-query')();
      },
    ],
    ['POST', /^\/api\/v1\/balance-refresh$/, ex('POST__api_v1_balance-refresh')],
    ['GET', /^\/api\/v1\/balance-refresh\/[^/]+$/, ex('GET__api_v1_balance-refresh_refreshId')],
    ['GET', /^\/api\/v1\/credentials\/list$/, ex('GET__api_v1_credentials_list')],
    [
      'POST',
      /^\/api\/v1\/credentials\/([^/]+)\/refresh$/,
      (m) => {
        since.set(m[1]!, 0);
        answered.delete(m[1]!);
        return { status: 204 };
      },
    ],
    [
      'POST',
      /^\/api\/v1\/credentials\/([^/]+)\/supplemental-information$/,
      (m) => {
        answered.add(m[1]!);
        return { status: 204 };
      },
    ],
    [
      'GET',
      /^\/api\/v1\/credentials\/([^/]+)$/,
      (m) => {
        const id = m[1]!;
        const n = since.get(id);
        if (n !== undefined) since.set(id, n + 1);
        const file = REALWORLD_CREDENTIALS[id];
        // after a refresh: the card reader ends once answered, the others on the second look
        const done = id === 'cardreader' ? answered.has(id) : n !== undefined && n >= 1;
        const text = file && !done ? realworld(file) : undefined;
        if (text) return { status: 200, body: text, contentType: 'application/json' };
        return ex('GET__api_v1_credentials_id')();
      },
    ],
    ['GET', /^\/data\/v2\/transactions$/, ex('GET__data_v2_transactions')],
    ['GET', /^\/data\/v2\/accounts$/, ex('GET__data_v2_accounts')],
    ['GET', /^\/data\/v2\/accounts\/[^/]+\/balances$/, ex('GET__data_v2_accounts_id_balances')],
    ['GET', /^\/data\/v2\/accounts\/[^/]+$/, ex('GET__data_v2_accounts_id')],
  ];
}

export interface Replay {
  url: string;
  seen: Seen[];
  /** Replaces the answer of the first route that matches method and path (tests' variations). */
  override(method: string, path: RegExp, answer: (m: RegExpExecArray, seen: Seen) => Answer): void;
  close(): Promise<void>;
}

export async function startReplay(routes: Route[] = referenceRoutes()): Promise<Replay> {
  const table = [...routes];
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const requestId = randomUUID();
      const s: Seen = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        requestId,
      };
      seen.push(s);
      const path = new URL(req.url!, 'http://x').pathname;
      let answer: Answer = { status: 404, body: { errorMessage: `replay: no example for ${req.method} ${path}` } };
      for (const [method, re, fn] of table) {
        const m = method === req.method ? re.exec(path) : null;
        if (m) {
          answer = fn(m, s);
          break;
        }
      }
      const text =
        answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : writeJson(answer.body);
      res.writeHead(answer.status, {
        'content-type': answer.contentType ?? 'application/json',
        'x-request-id': requestId,
        ...answer.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    override(method, path, answer) {
      table.unshift([method, path, answer]);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
