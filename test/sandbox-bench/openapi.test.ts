// GET /openapi.json: a valid OpenAPI 3.1 document (checked by a maintained validator), made from the
// router's own table: every route the sandbox serves is described, every described route is served.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/contract/index.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let doc: any;
beforeAll(async () => {
  t = await startTestSandbox();
  const r = await raw(t.sandbox.baseUrl, 'GET', '/openapi.json');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/application\/json/);
  doc = r.json();
});
afterAll(() => t.close());

test('the document is valid OpenAPI 3.1', async () => {
  const result = await new Validator().validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.servers[0].url).toBe(t.sandbox.baseUrl);
});

test('described == served: the router table, both ways, and over HTTP', async () => {
  const described = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
  const served = t.sandbox.context.bench!.table.map((e) => `${e.method} ${e.path}`).sort();
  expect(described).toEqual(served);
  expect(served).toEqual(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());
  expect(described).toEqual(
    expect.arrayContaining([
      'GET /sandbox/logs',
      'POST /sandbox/fixtures',
      'GET /openapi.json',
      'POST /sandbox/trigger',
    ]),
  );
  // every described route answers as a route (not "no such endpoint", not 405)
  for (const key of described) {
    const [method, path] = key.split(' ') as [string, string];
    const r = await raw(t.sandbox.baseUrl, method, path.replace(/\{\w+\}/g, 'x'), {
      headers: { 'content-type': 'application/json' },
      body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
    });
    expect(r.status, key).not.toBe(405);
    if (r.status === 404) expect(r.text, key).not.toMatch(/no such endpoint/);
  }
  const missing = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/not-described');
  expect(missing.status).toBe(404);
  expect(missing.text).toMatch(/no such endpoint/);
}, 60_000);

test('each operation says how it is authenticated', () => {
  expect(doc.paths['/api/v1/oauth/token'].post.security).toEqual([]);
  expect(doc.paths['/data/v2/accounts'].get.security[0].bearer).toContain('accounts:read');
  expect(doc.paths['/sandbox/reset'].post['x-sandbox-only']).toBe(true);
  expect(doc.components.securitySchemes.connectorToken).toMatchObject({
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
  });
});
