// A booked transaction replaces pending ones through payload.PENDING_IDS (connector spec 3); the
// service ignores a pending id it does not hold yet. Chunks go out side by side, so a chunk of
// replacements could be stored before the chunk holding the pending ones, leaving both (spending
// counted twice, exit 0). A chunk that replaces pending transactions of an earlier chunk is sent
// only once every earlier chunk has been answered.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, ndjsonLine, userWithAccounts, type Tx } from './helpers.js';

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await startTestSandbox();
  dir = tempDir();
});
afterAll(async () => env.close());

/** `blocks` times: 2,500 pending transactions (a whole chunk), then 2,500 that replace them one each. */
function pendingThenBooked(blocks: number): Tx[] {
  const out: Tx[] = [];
  for (let b = 0; b < blocks; b++) {
    const pending = makeTxs(2500, { prefix: `p${b}` }).map((t) => ({ ...t, pending: true }));
    const booked = makeTxs(2500, { prefix: `b${b}` }).map((t, i) => ({
      ...t,
      payload: { PENDING_IDS: [pending[i]!.externalId] },
    }));
    out.push(...pending, ...booked);
  }
  return out;
}

const ndjson = (name: string, txs: Tx[]) => {
  const file = join(dir, name);
  writeFileSync(file, `${txs.map((t) => ndjsonLine(t, '0')).join('\n')}\n`);
  return file;
};

const csv = (name: string, txs: Tx[]) => {
  const file = join(dir, name);
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const rows = txs.map((t) =>
    [
      t.account,
      t.externalId,
      t.amount,
      t.date,
      t.description,
      t.type,
      t.pending ? 'true' : '',
      '0',
      t.payload ? q(JSON.stringify(t.payload)) : '',
    ].join(','),
  );
  writeFileSync(file, `account,externalId,amount,date,description,type,pending,balance,payload\n${rows.join('\n')}\n`);
  return file;
};

describe('a service that answers the first chunk late', () => {
  for (const [format, write] of [
    ['ndjson', ndjson],
    ['csv', csv],
  ] as const) {
    test(`${format}: the replacements wait for the pending chunk; none is left pending`, async () => {
      // the service's rule, processed in the order requests arrive: a PENDING_IDS entry removes the
      // pending transaction it names, if it is there already
      const held = new Map<string, boolean>(); // externalId -> pending
      const arrivals: number[] = [];
      let answered = 0;
      let n = 0;
      const server = createServer((req, res) => {
        const k = n++;
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          arrivals.push(answered);
          const c = JSON.parse(body) as {
            transactionAccounts: Array<{
              transactions: Array<{ externalId: string; pending?: boolean; payload?: { PENDING_IDS?: string[] } }>;
            }>;
          };
          // the first request is slow: anything sent beside it overtakes it
          setTimeout(
            () => {
              for (const t of c.transactionAccounts.flatMap((a) => a.transactions)) {
                for (const id of t.payload?.PENDING_IDS ?? []) if (held.get(id) === true) held.delete(id);
                held.set(t.externalId, t.pending === true);
              }
              answered++;
              res.writeHead(204).end();
            },
            k === 0 ? 300 : 0,
          );
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const file = write(`late.${format}`, pendingThenBooked(1));
        const r = await runCli(['connector', 'push', '--user', 'x', '--file', file, '--concurrency', '4'], {
          env: { ...env.env, BANKCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}` },
        });
        expect(r.code, r.stderr).toBe(0);
        // two chunks: the replacements arrived after the pending chunk was answered
        expect(arrivals).toEqual([0, 1]);
        expect([...held.values()].filter(Boolean)).toHaveLength(0);
        expect(held.size).toBe(2500);
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  }

  test('chunks without replacements still go out side by side', async () => {
    let inflight = 0;
    let most = 0;
    const server = createServer((req, res) => {
      inflight++;
      most = Math.max(most, inflight);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          inflight--;
          res.writeHead(204).end();
        }, 100),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const file = ndjson('plain.ndjson', makeTxs(10_000));
      const r = await runCli(['connector', 'push', '--user', 'x', '--file', file, '--concurrency', '4'], {
        env: { ...env.env, BANKCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}` },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(most).toBe(4);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('against the sandbox', () => {
  test('four blocks of pending and replacing chunks, four in flight: only the booked ones remain', async () => {
    await userWithAccounts(env, 'pend');
    const file = ndjson('pend.ndjson', pendingThenBooked(4));
    const r = await runCli(['connector', 'push', '--user', 'pend', '--file', file, '--concurrency', '4'], {
      env: env.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const u = env.sandbox.store.userByExternalId('pend')!;
    const mine = [...env.sandbox.store.transactions.values()].filter((t) => t.userId === u.id);
    expect(mine.filter((t) => t.status === 'PENDING')).toHaveLength(0);
    expect(mine).toHaveLength(10_000);
    const verify = await runCli(['connector', 'verify', '--user', 'pend', '--file', file, '-o', 'json'], {
      env: env.env,
    });
    expect(verify.code, verify.stderr).toBe(0);
  }, 60_000);
});
