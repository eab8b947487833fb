// connector batch against a service that answers 200 without a status for every entity sent:
// an entity without a status is not a success (exit 7), nor is one whose httpStatus is no number.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';

let server: Server;
let base = '';
let answer: unknown = { statuses: [] };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const container = {
  type: 'REAL_TIME',
  transactionAccounts: [
    {
      externalId: 'acc-1',
      balance: 1,
      transactions: [{ externalId: 't', amount: 1.5, date: 1_700_000_000_000, description: 'd', type: 'DEFAULT' }],
    },
  ],
};
const data = JSON.stringify({
  ingestEntities: ['e1', 'e2'].map((entityId) => ({ entityId, externalUserId: 'u', container })),
});
const run = () =>
  spawnCli(['connector', 'batch', '--data', data, '-o', 'json'], {
    env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: base, BANKCTL_CONNECTOR_TOKEN: 'ct-secret-1' },
  });

describe('connector batch: entities the answer leaves out', () => {
  test('a status for e1 only: exit 7 naming e2', async () => {
    answer = { statuses: [{ entityId: 'e1', httpStatus: 204, response: {} }] };
    const r = await run();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('no status for 1 of 2 entities (first: e2)');
    expect(r.stderr).not.toContain('ct-secret-1');
  });

  test('a status without httpStatus is not a success', async () => {
    answer = {
      statuses: [
        { entityId: 'e1', httpStatus: 204, response: {} },
        { entityId: 'e2', response: { errorMessage: 'boom' } },
      ],
    };
    const r = await run();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('(first: e2)');
  });

  test('a failed entity keeps its own exit code, and the unanswered one is said too', async () => {
    answer = { statuses: [{ entityId: 'e1', httpStatus: 412, response: { errorMessage: 'no accounts' } }] };
    const r = await run();
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('1 of 2 entities failed; first: e1: no accounts; 1 without a status (e2...)');
  });

  test('every entity answered 204: exit 0', async () => {
    answer = {
      statuses: [
        { entityId: 'e1', httpStatus: 204, response: {} },
        { entityId: 'e2', httpStatus: 204, response: {} },
      ],
    };
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });
});
