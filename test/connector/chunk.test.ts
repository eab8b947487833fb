// A chunk's per-transaction bookkeeping lives in typed arrays reused from chunk to chunk, and request
// bodies are reused once the HTTP client hands them back: neither may ever leak one chunk's data
// into another's body, ids or input lines.
import { describe, expect, test } from 'vitest';
import { BodyBuffers, Chunk, PartBuffers } from '../../src/push/chunk.js';
import { Chunker } from '../../src/push/chunking.js';
import { LineScan, scanLine } from '../../src/push/ndjson-scan.js';
import type { AccountInfo } from '../../src/push/types.js';

const sc = new LineScan();

function addLine(c: Chunk, line: string, account: number, lineNo: number): void {
  const b = Buffer.from(`${line}\n`);
  if (!scanLine(b, 0, b.length - 1, sc)) throw new Error(`not a plain line: ${line}`);
  c.addScanned(b, sc, account, lineNo);
}

const tx = (id: string, amount: string) =>
  `{"account":"A","externalId":"${id}","amount":${amount},"date":1700000000000,"description":"d","type":"DEFAULT"}`;

const accounts = [{ head: Buffer.from('{"externalId":"A","balance":1,"transactions":[') }] as unknown as AccountInfo[];
const head = Buffer.from('{"type":"REAL_TIME","transactionAccounts":[');

describe('a chunk', () => {
  test('keeps every transaction past its starting capacity: ids, lines, accounts and the body', () => {
    const c = new Chunk(new PartBuffers(), 2);
    for (let i = 0; i < 9; i++) addLine(c, tx(`tx-${i}`, `${i}.05`), 0, 100 + i);
    c.addJson('{"externalId":"é-9","amount":9.05}', 0, 'é-9', 200);
    expect(c.size).toBe(10);
    expect(Array.from({ length: 10 }, (_, i) => c.idOf(i))).toEqual([
      ...Array.from({ length: 9 }, (_, i) => `tx-${i}`),
      'é-9',
    ]);
    expect(c.lineOf(3)).toBe(103);
    expect(c.lineOf(9)).toBe(200);
    expect(c.accountOf(9)).toBe(0);
    for (let i = 0; i < 9; i++) expect(c.hasIdText(`tx-${i}`)).toBe(true);
    expect(c.hasIdText('é-9')).toBe(true);
    expect(c.hasIdText('tx-10')).toBe(false);
    expect(c.hasIdText('tx-')).toBe(false);
    const body = JSON.parse(c.body(head, accounts).toString());
    const sent = body.transactionAccounts[0].transactions;
    expect(sent.map((t: { externalId: string }) => t.externalId)).toEqual(
      Array.from({ length: 10 }, (_, i) => c.idOf(i)),
    );
    expect(c.wireOf(2)).toBe(
      '{"externalId":"tx-2","amount":2.05,"date":1700000000000,"description":"d","type":"DEFAULT"}',
    );
    // a subset, as a 409 resend builds it
    const some = JSON.parse(c.body(head, accounts, [1, 9]).toString());
    expect(some.transactionAccounts[0].transactions).toEqual([
      { externalId: 'tx-1', amount: 1.05, date: 1700000000000, description: 'd', type: 'DEFAULT' },
      { externalId: 'é-9', amount: 9.05 },
    ]);
  });

  test('a chunk made from released slots knows none of the ids before it', () => {
    const pool = new PartBuffers();
    const first = new Chunk(pool, 4);
    for (let i = 0; i < 4; i++) addLine(first, tx(`old-${i}`, '1.00'), 0, i + 1);
    first.release();
    expect(() => first.idOf(0)).toThrow();
    const next = new Chunk(pool, 4);
    expect(next.size).toBe(0);
    for (let i = 0; i < 4; i++) expect(next.hasIdText(`old-${i}`)).toBe(false);
    addLine(next, tx('new-0', '2.00'), 0, 7);
    expect(next.idOf(0)).toBe('new-0');
    expect(next.hasIdText('new-0')).toBe(true);
  });

  test('the chunker starts a new chunk for an externalId the current one holds', async () => {
    const sizes: Array<string[]> = [];
    const ch = new Chunker(2500, async (_i, c) => {
      sizes.push(Array.from({ length: c.size }, (_, k) => c.idOf(k)));
      c.release();
    });
    for (const id of ['a', 'b', 'a', 'c']) {
      const b = Buffer.from(id);
      await ch.room(b, 0, b.length);
      addLine(ch.current, tx(id, '1.00'), 0, 1);
    }
    await ch.flush();
    expect(sizes).toEqual([
      ['a', 'b'],
      ['a', 'c'],
    ]);
  });
});

describe('request bodies', () => {
  test('a body handed back is given out again; one from elsewhere never is', () => {
    const bodies = new BodyBuffers();
    const a = bodies.get(1000);
    const body = a.subarray(0, 900);
    bodies.put(body);
    bodies.put(body);
    const again = bodies.get(950);
    expect(again.buffer).toBe(a.buffer);
    // handed back twice, it is still given out once
    expect(bodies.get(950).buffer).not.toBe(a.buffer);
    // a Buffer from Node's shared pool (or anyone's) is not ours to reuse
    const foreign = Buffer.from('{"x":1}');
    bodies.put(foreign);
    expect(bodies.get(4).buffer).not.toBe(foreign.buffer);
  });
});
