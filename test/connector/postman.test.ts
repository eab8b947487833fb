// The service's own Postman collection for the connector, run unchanged but for the host: every
// request must be answered 2xx by the sandbox.
import { afterAll, beforeAll, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { requires, sharedReference } from '../helpers/requires.js';

const COLLECTION_NAME = 'connector.postman_collection.json';
const COLLECTION = sharedReference(COLLECTION_NAME);
const needs = requires({ shared: [COLLECTION_NAME] });

let env: TestEnv;
beforeAll(async () => {
  env = await startTestSandbox();
});
afterAll(async () => env.close());

needs.test(
  'connector.postman_collection.json runs against the sandbox, every request 2xx',
  async () => {
    const newman = createRequire(import.meta.url)('newman') as {
      run: (o: unknown, cb: (err: unknown, summary: any) => void) => void;
    };
    const collection = JSON.parse(readFileSync(COLLECTION, 'utf8'));
    // only the host changes: each request's URL becomes its raw form with the sandbox's origin
    const rehost = (items: any[]): void => {
      for (const it of items) {
        if (it.item) rehost(it.item);
        if (it.request?.url) {
          const rawUrl = typeof it.request.url === 'string' ? it.request.url : it.request.url.raw;
          it.request.url = rawUrl.replace('https://api.tink.com', env.sandbox.baseUrl);
        }
      }
    };
    rehost(collection.item);
    const summary = await new Promise<any>((resolve, reject) =>
      newman.run(
        {
          collection,
          globals: {
            values: [
              { key: 'client_id', value: env.sandbox.clientId, type: 'default' },
              { key: 'client_secret', value: env.sandbox.clientSecret, type: 'default' },
              { key: 'external_user_id', value: 'test-user-1', type: 'default' },
            ],
          },
          reporters: [],
        },
        (err, s) => (err ? reject(err) : resolve(s)),
      ),
    );
    const executions = summary.run.executions as Array<{
      item: { name: string };
      response?: { code: number; text(): string };
    }>;
    const results = executions.map((e) => [
      e.item.name,
      e.response?.code,
      (e as { requestError?: Error }).requestError?.message,
    ]);
    expect(results.map((r) => r[2])).toEqual([undefined, undefined, undefined, undefined]);
    for (const e of executions)
      expect(e.response?.code, `${e.item.name}: ${e.response?.text()}`).toBeGreaterThanOrEqual(200);
    for (const e of executions) expect(e.response?.code, `${e.item.name}: ${e.response?.text()}`).toBeLessThan(300);
    expect(summary.run.failures).toEqual([]);
    // and the pushed transaction is there, amount exact
    const user = env.sandbox.store.userByExternalId('test-user-1')!;
    const tx = [...env.sandbox.store.transactions.values()].filter((t) => t.userId === user.id);
    expect(tx.map((t) => [t.externalId, t.amount, t.status])).toEqual([['test-transaction-1', '-98.5', 'BOOKED']]);
  },
  30_000,
);
