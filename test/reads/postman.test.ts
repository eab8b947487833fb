// The service's own Postman collection (continuous access) run unchanged but for the host against the
// sandbox, through newman's Node API: every request must answer 2xx and every test script pass.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
// @ts-expect-error newman ships no types
import newman from 'newman';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { demo } from './helpers.js';
import { requires, sharedReference } from '../helpers/requires.js';

const COLLECTION_NAME = 'continuous-access.postman_collection.json';
const COLLECTION = sharedReference(COLLECTION_NAME);
const needs = requires({ shared: [COLLECTION_NAME] });
const REAL_HOST = 'https://api.tink.com';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 3 });
});
afterAll(() => t.close());

/** The collection with every request's URL pointed at the sandbox; nothing else changes. */
function retarget(collection: any, base: URL): any {
  const walk = (items: any[]) => {
    for (const it of items) {
      if (it.item) walk(it.item);
      const url = it.request?.url;
      if (!url) continue;
      if (typeof url === 'string') {
        it.request.url = url.replace(REAL_HOST, base.origin);
        continue;
      }
      url.raw = String(url.raw).replace(REAL_HOST, base.origin);
      url.protocol = base.protocol.replace(':', '');
      url.host = base.hostname.split('.');
      url.port = base.port;
    }
  };
  walk(collection.item);
  return collection;
}

needs.test('runs the continuous-access collection: all requests 2xx, all test scripts pass', async () => {
  const raw = readFileSync(COLLECTION, 'utf8');
  const collection = retarget(JSON.parse(raw), new URL(t.sandbox.baseUrl));
  expect(JSON.stringify(collection)).not.toContain(`${REAL_HOST}/`);
  const responses: Array<{ name: string; code: number; body: string }> = [];
  const summary: any = await new Promise((resolve, reject) => {
    const run = newman.run(
      {
        collection,
        environment: {
          values: [
            { key: 'client_id', value: t.sandbox.clientId, enabled: true },
            { key: 'client_secret', value: t.sandbox.clientSecret, enabled: true },
            { key: 'id_hint', value: 'John Doe (sandbox)', enabled: true },
            { key: 'actor_client_id', value: 'df05e4b379934cd09963197cc855bfe9', enabled: true },
          ],
        },
        reporters: [],
        timeout: 20_000,
      },
      (err: Error | null, s: unknown) => (err ? reject(err) : resolve(s)),
    );
    run.on('request', (_err: unknown, o: any) => {
      const body = o.response?.stream ? Buffer.from(o.response.stream).toString('utf8') : '';
      responses.push({ name: o.item.name, code: o.response?.code, body });
      // the user the collection creates gets bank data, so the list calls return real pages
      if (o.item.name === 'b. Create user') {
        const userId = JSON.parse(body).user_id;
        demo(t.sandbox, userId, 'postman', 2);
      }
    });
  });
  const failures = summary.run.failures.map((f: any) => `${f.source?.name}: ${f.error?.message}`);
  expect(
    failures,
    JSON.stringify(
      responses.filter((r) => r.code >= 300),
      null,
      2,
    ),
  ).toEqual([]);
  expect(responses.map((r) => r.name)).toEqual([
    'a. Authorize your app',
    'b. Create user',
    'c. Generate the code',
    'd. Grant user access',
    'a. Create authorization',
    'b. Get a user access token',
    'c. List accounts',
    'd. List transactions',
  ]);
  for (const r of responses) expect(r.code, `${r.name}: ${r.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
  for (const r of responses) expect(r.code, r.name).toBeLessThan(300);
  const assertions = summary.run.stats.assertions;
  expect(assertions.total).toBe(8);
  expect(assertions.failed).toBe(0);
  const accounts = JSON.parse(responses[6]!.body);
  expect(accounts.accounts.length).toBe(5);
  expect(accounts.accounts[0].balances.booked.amount.value.unscaledValue).toMatch(/^-?\d+$/);
  const txs = JSON.parse(responses[7]!.body);
  expect(txs.transactions).toHaveLength(100);
  expect(txs.nextPageToken).not.toBe('');
});
