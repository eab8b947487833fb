// The fields `--fields` accepts on any page (contract/item-fields.ts) are the reference's: exactly
// the leaves of its fully populated List Transactions example, and a superset of everything the
// sandbox sends. A field the service added, or one the sandbox invented, fails here first.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { V2_TRANSACTION_FIELDS } from '../../src/contract/item-fields.js';
import { generateDemoDataDetailed } from '../../src/sandbox/demo-data.js';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { userWithLocale } from '../finance/helpers.js';
import { example } from './replay.js';

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

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('declared v2 transaction fields', () => {
  test("are the leaves of the reference's List Transactions example, no more and no fewer", () => {
    const body = example('GET__data_v2_transactions').body as { transactions: unknown[] };
    expect([...leaves(body.transactions)].sort()).toEqual([...V2_TRANSACTION_FIELDS].sort());
  });

  test('cover every field of every transaction the sandbox sends (five months of demo data)', async () => {
    const u = await userWithLocale(t.sandbox, ['transactions:read'], 'SE', 'en_US');
    generateDemoDataDetailed(t.sandbox.store, {
      userId: u.userId,
      credentialsIds: ['c'.repeat(32)],
      providerName: 'se-test',
      currencyCode: 'SEK',
      seed: u.userId,
      now: t.sandbox.clock.now(),
      months: 5,
    });
    const seen: unknown[] = [];
    let token = '';
    do {
      const q = `pageSize=100${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
      const r = await raw(t.sandbox.baseUrl, 'GET', `/data/v2/transactions?${q}`, { headers: u.h });
      expect(r.status).toBe(200);
      const page = r.json() as { transactions: unknown[]; nextPageToken?: string };
      seen.push(...page.transactions);
      token = page.nextPageToken ?? '';
    } while (token);
    expect(seen.length).toBeGreaterThan(100);
    const sent = leaves(seen);
    // the demo data has payees and payers, so the optional parts are there to be checked
    expect(sent).toContain('counterparties.payee.name');
    expect(sent).toContain('counterparties.payer.name');
    expect([...sent].filter((p) => !V2_TRANSACTION_FIELDS.includes(p))).toEqual([]);
  });
});
