// Token kinds and scopes of every endpoint bankctl covers, against the vendor's reference: the
// "Works with" tables of docs.tink.com as exported in tsyjonathan/Tiny-doc
// (docs/tink_docs_api/<area>/index.md), transcribed in test/fixtures/reference/endpoints.json (each
// row names its page). A contract entry whose method and path the reference lists must accept exactly
// the token kinds of that table and require exactly its scopes (any one of them, as the table's rows
// say "or").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_ENDPOINTS, type Endpoint, type TokenKind } from '../../src/contract/index.js';

interface RefEndpoint {
  method: string;
  path: string;
  page: string;
  title: string;
  worksWith: string[] | null;
  scopes: string[] | null;
}

const REFERENCE = JSON.parse(
  readFileSync(new URL('../fixtures/reference/endpoints.json', import.meta.url), 'utf8'),
) as RefEndpoint[];

const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const key = (method: string, path: string) => `${method} ${shape(path)}`;

/** The contract's token kinds a reference "Works with" table allows. */
function kindsFor(worksWith: string[]): TokenKind[] {
  const w = [...worksWith].sort().join('+');
  if (w === 'user') return ['user'];
  // the connector's `Token` scheme also takes a client Bearer token (spec-gaps row of the connector)
  if (w === 'client') return ['client', 'connector'];
  if (w === 'client+user') return ['any', 'optional'];
  throw new Error(`unexpected Works-with table ${w}`);
}

export function coveredReferenceEndpoints(table: readonly Endpoint[] = SERVICE_ENDPOINTS): RefEndpoint[] {
  const keys = new Set(table.map((e) => key(e.method, e.path)));
  return REFERENCE.filter((r) => keys.has(key(r.method, r.path)));
}

describe('token kinds and scopes follow the vendor reference (test/fixtures/reference/endpoints.json)', () => {
  const byKey = new Map(REFERENCE.map((r) => [key(r.method, r.path), r]));
  const covered = SERVICE_ENDPOINTS.filter((e) => byKey.has(key(e.method, e.path)));

  it('covers the reference endpoints the modern API issue names', () => {
    const paths = new Set(covered.map((e) => key(e.method, e.path)));
    for (const k of [
      'GET /data/v2/accounts/{}',
      'GET /data/v2/accounts/{}/balances',
      'GET /data/v2/accounts/{}/parties',
      'GET /data/v2/identities',
      'GET /data/v2/investment-accounts',
      'GET /data/v2/investment-accounts/{}',
      'GET /data/v2/investment-accounts/{}/holdings',
      'GET /data/v2/loan-accounts',
      'GET /data/v2/loan-accounts/{}',
      'GET /data/v2/transaction-reports/{}',
      'POST /connectivity/v2/consents',
      'GET /connectivity/v2/consents',
      'GET /connectivity/v2/consents/{}',
      'POST /connectivity/v2/consents/{}:revoke',
      'GET /connectivity/v2/consent-templates/{}',
      'POST /connectivity/v2/consents/{}/authorizations',
      'GET /connectivity/v2/consents/{}/authorizations',
      'GET /connectivity/v2/consents/{}/authorizations/{}',
      'POST /connectivity/v2/authorizations:relay-callback',
      'POST /link/v1/session',
      'GET /api/v1/user',
      'PATCH /api/v1/user',
      'GET /api/v1/user/profile',
      'PUT /api/v1/user/profile',
      'GET /api/v1/providers/{}',
    ])
      expect(paths, k).toContain(k);
  });

  for (const ep of covered) {
    const ref = byKey.get(key(ep.method, ep.path))!;
    it(`${ep.id}: ${ep.method} ${ep.path} as "${ref.title}" (${ref.page}) says`, () => {
      if (ref.worksWith) expect(kindsFor(ref.worksWith), `token kind of ${ep.id}`).toContain(ep.token);
      if (ref.scopes) expect([...ep.scopes].sort(), `scopes of ${ep.id}`).toEqual([...ref.scopes].sort());
    });
  }
});

describe('coverage of the reference (203 endpoints)', () => {
  it('the sandbox serves every covered endpoint; the count is what the README states', () => {
    const covered = coveredReferenceEndpoints();
    expect(REFERENCE).toHaveLength(203);
    // 58 before issue 21 as counted here (issue 21 said 57); + 10 data v2, 9 connectivity v2, 4 user, 1 Link session,
    // + 4 Events v2 webhook endpoints (issue 15)
    expect(covered.length).toBe(86);
  });
});
