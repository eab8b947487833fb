// connector batch sent again after an attempt that got no answer: a 409 naming every transaction
// of an entity is that attempt's own doing (exit 0, warned), not a failed entity; a 409 without a
// lost attempt before it, or naming only part of the entity, stays exit 5.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../../helpers/cli.js';

let server: Server;
let base = '';
let dropFirst = true;
let requests = 0;
let answer: unknown = { statuses: [] };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      if (dropFirst && requests === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const container = (ids: string[]) => ({
  type: 'REAL_TIME',
  transactionAccounts: [
    {
      externalId: 'acc-1',
      balance: 1,
      transactions: ids.map((externalId) => ({
        externalId,
        amount: 1.5,
        date: 1_700_000_000_000,
        description: 'd',
        type: 'DEFAULT',
      })),
    },
  ],
});
const data = JSON.stringify({
  ingestEntities: [
    { entityId: 'e1', externalUserId: 'u1', container: container(['a-1', 'a-2']) },
    { entityId: 'e2', externalUserId: 'u2', container: container(['b-1']) },
  ],
});
const conflict = (ids: string[]) => ({
  errorMessage: 'transaction already exists',
  errorCode: 'transaction.exists',
  errorDetails: { externalIds: ids },
});
const run = () =>
  spawnCli(['connector', 'batch', '--data', data, '-o', 'json'], {
    env: {
      BANKCTL_CONFIG_DIR: tempDir(),
      BANKCTL_BASE_URL: base,
      BANKCTL_CONNECTOR_TOKEN: 'ct-secret-2',
      BANKCTL_RETRIES: '2',
    },
  });

describe('connector batch: a 409 after a lost attempt', () => {
  test('naming every transaction of the entity: stored by the lost attempt, exit 0 and a warning', async () => {
    requests = 0;
    dropFirst = true;
    answer = {
      statuses: [
        { entityId: 'e1', httpStatus: 409, response: conflict(['a-1', 'a-2']) },
        { entityId: 'e2', httpStatus: 409, response: conflict(['b-1']) },
      ],
    };
    const r = await run();
    expect(requests).toBe(2);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2 entities answered 409 (e1...) after an attempt that got no answer or a 5xx');
    expect(r.stderr).not.toContain('ct-secret-2');
  });

  test('naming only part of the entity: still a failure, exit 5, the lost attempt said', async () => {
    requests = 0;
    dropFirst = true;
    answer = {
      statuses: [
        { entityId: 'e1', httpStatus: 409, response: conflict(['a-1']) },
        { entityId: 'e2', httpStatus: 204, response: {} },
      ],
    };
    const r = await run();
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('1 of 2 entities failed; first: e1');
    expect(r.stderr).toContain('it may have stored some of this');
  });

  test('no lost attempt: a 409 is the failure it says, exit 5', async () => {
    requests = 0;
    dropFirst = false;
    answer = {
      statuses: [
        { entityId: 'e1', httpStatus: 409, response: conflict(['a-1', 'a-2']) },
        { entityId: 'e2', httpStatus: 204, response: {} },
      ],
    };
    const r = await run();
    expect(requests).toBe(1);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).not.toContain('may have stored');
  });
});
