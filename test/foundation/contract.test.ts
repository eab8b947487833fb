// The contract (src/contract/): every endpoint declared once, and both sides held to it. The sandbox
// refuses to start with a route outside the table or an entry without a handler, and answers a path
// the table does not name with 404 and the error envelope, whoever asks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  compileTemplate,
  defineArea,
  EndpointIndex,
  endpointFor,
  ENDPOINTS,
  EP,
  expandPath,
  scopeFor,
  SERVICE_ENDPOINTS,
  TOKEN_KINDS,
  type Endpoint,
} from '../../src/contract/index.js';
import { registerAreas } from '../../src/sandbox/areas.js';
import { EventBus, type SandboxContext } from '../../src/sandbox/context.js';
import { Router } from '../../src/sandbox/router.js';
import { IdSource, MemoryStore, SandboxClock } from '../../src/sandbox/store.js';
import { ROOT } from '../helpers/cli.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

/** The sandbox's start-up registration (registerAreas, as startSandbox runs it) against a router over `table`. */
function register(table: readonly Endpoint[]): void {
  const store = new MemoryStore(new SandboxClock(), new IdSource(1));
  const router = new Router(store, table);
  const ctx: SandboxContext = {
    handle: (e, h, o) => router.handle(e, h, o),
    store,
    clock: store.clock as SandboxClock,
    events: new EventBus(),
    options: { authDelayMs: 1 },
    baseUrl: () => 'http://127.0.0.1:1',
    linkUrl: () => 'http://127.0.0.1:1/link',
    setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  };
  registerAreas(ctx, router);
}

describe('the table', () => {
  test('one entry per method and path, ids unique, every entry complete', () => {
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length);
    expect(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size).toBe(ENDPOINTS.length);
    for (const e of ENDPOINTS) {
      expect(TOKEN_KINDS, e.id).toContain(e.token);
      expect(e.source.length, e.id).toBeGreaterThan(0);
      expect(e.path.startsWith('/'), e.id).toBe(true);
      if (e.body === 'none') expect(e.fields, e.id).toEqual([]);
      expect(e.params).toEqual([...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
    }
    // the sandbox's own routes are marked, so the service's table is the rest; the one /link/ route
    // the vendor reference lists (POST /link/v1/session) is the service's, the Link UI's are not
    const reference = new Set(
      (
        JSON.parse(readFileSync(join(ROOT, 'test/fixtures/reference/endpoints.json'), 'utf8')) as {
          method: string;
          path: string;
        }[]
      ).map((r) => `${r.method} ${r.path}`),
    );
    expect(
      SERVICE_ENDPOINTS.filter(
        (e) =>
          e.path.startsWith('/sandbox/') || (e.path.startsWith('/link/') && !reference.has(`${e.method} ${e.path}`)),
      ).map((e) => e.id),
    ).toEqual([]);
  });

  test('the lookup: literal segments before parameters, the query ignored, HEAD finds GET', () => {
    expect(endpointFor('GET', '/api/v1/credentials/list')).toBe(EP.credentials.list);
    expect(endpointFor('GET', '/api/v1/credentials/abc')).toBe(EP.credentials.get);
    expect(endpointFor('get', '/data/v2/transactions?pageSize=5')).toBe(EP.transactions.list);
    expect(endpointFor('DELETE', '/api/v1/credentials/list')).toBe(EP.credentials.delete);
    expect(endpointFor('GET', '/api/v1/nonexistent')).toBeUndefined();
    // the vendor reference's scope for the providers list (issue 21)
    expect(scopeFor('GET', '/api/v1/providers')).toEqual(['credentials:read']);
    expect(scopeFor('POST', '/api/v1/oauth/token')).toEqual([]);
  });

  test('the lookup of a path without parameters answers what the literal-first scan of the templates answers', () => {
    // find() looks static paths up in a map before it runs any template's expression: for every
    // entry, and for paths that a template takes but no static entry spells, both give one answer
    const index = new EndpointIndex(ENDPOINTS);
    const scan = (method: string, path: string) => {
      const m = method === 'HEAD' ? 'GET' : method;
      const candidates = ENDPOINTS.filter((e) => e.method === m && compileTemplate(e.path).test(path));
      const literals = (e: Endpoint) => e.path.split('/').filter((x) => x && !x.startsWith('{')).length;
      return candidates.sort((a, b) => literals(b) - literals(a))[0];
    };
    let statics = 0;
    for (const e of ENDPOINTS) {
      const concrete = e.path.replace(/\{\w+\}/g, 'x1');
      if (concrete === e.path) statics++;
      for (const method of e.method === 'GET' ? ['GET', 'HEAD'] : [e.method]) {
        const found = index.find(method, concrete);
        expect(found?.endpoint, `${method} ${concrete}`).toBe(scan(method, concrete));
        if (concrete === e.path) expect(found?.endpoint).toBe(e);
      }
    }
    expect(statics).toBeGreaterThan(20);
    expect(index.find('GET', '/api/v1/credentials/list')?.match).toEqual(['/api/v1/credentials/list']);
    expect(index.find('GET', '/api/v1/credentials/abc')?.match[1]).toBe('abc');
    expect(index.find('GET', '/version/')).toBeUndefined();
  });

  test('paths are built from the template, each parameter percent-encoded', () => {
    expect(expandPath(EP.connector.updateAccount, { externalUserId: 'a/b', externalAccountId: 'c d' })).toBe(
      '/connector/users/a%2Fb/accounts/c%20d',
    );
    expect(() => expandPath(EP.credentials.get, {})).toThrow(/credentials.get: path parameter id is missing/);
  });

  test('no URL is spelled by hand in api/ or flows/: every call names a contract entry', () => {
    const dirs = ['src/api', 'src/flows'];
    const offenders: string[] = [];
    for (const dir of dirs)
      for (const f of readdirSync(join(ROOT, dir)).filter((x) => x.endsWith('.ts'))) {
        const text = readFileSync(join(ROOT, dir, f), 'utf8');
        for (const m of text.matchAll(/['`](\/(?:api\/v1|data\/v2|connector|sandbox|version)[^'`]*)['`]/g))
          offenders.push(`${dir}/${f}: ${m[1]}`);
      }
    expect(offenders).toEqual([]);
  });
});

describe('the sandbox fails closed', () => {
  test('it starts only when every entry has a handler, and names the one that has none', () => {
    expect(() => register(ENDPOINTS)).not.toThrow();
    const extra = defineArea('extra', {
      thing: { method: 'GET', path: '/api/v1/extra-thing', token: 'user', response: 'json', source: 'test' },
    });
    expect(() => register([...ENDPOINTS, extra.thing])).toThrow(
      'the sandbox has no handler for GET /api/v1/extra-thing (extra.thing)',
    );
  });

  test('a route with no contract entry is refused, naming it', () => {
    expect(() => register(ENDPOINTS.filter((e) => e !== EP.users.delete))).toThrow(
      'sandbox route POST /api/v1/user/delete has no contract entry',
    );
  });

  describe('over HTTP', () => {
    let t: TestEnv;
    beforeAll(async () => {
      t = await startTestSandbox();
    });
    afterAll(() => t.close());

    test('an unknown path is 404 with the error envelope, with or without a token', async () => {
      for (const path of ['/api/v1/nonexistent', '/sandbox/nothing-here', '/link/1.0/nope', '/']) {
        const r = await raw(t.sandbox.baseUrl, 'GET', path);
        expect(r.status, path).toBe(404);
        expect(r.json(), path).toEqual({
          errorMessage: `no such endpoint: GET ${path}`,
          errorCode: 'resource.not_found',
        });
      }
      const r = await raw(t.sandbox.baseUrl, 'PATCH', '/api/v1/credentials/list');
      expect(r.status).toBe(405);
      expect(r.json().errorCode).toBe('request.method_not_allowed');
    });

    test("the sandbox's own routes are authenticated as their entries say", async () => {
      expect((await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries')).status).toBe(401);
      expect((await raw(t.sandbox.baseUrl, 'POST', '/sandbox/connector-tokens', { json: {} })).status).toBe(401);
      const deliveries = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/webhooks/deliveries', {
        headers: { authorization: `Token ${t.sandbox.connectorToken}` },
      });
      expect(deliveries.status).toBe(200);
    });
  });
});
