// The byte-level fast path of ndjson push (push/ndjson-scan.ts) must never disagree with the
// general path (push/input.ts): a line it accepts is one the general path accepts, with the same
// account, balances, externalId and wire JSON; whatever it declines goes the general way. And it
// must really take the plain lines, or the push is slow.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { LineScan, scanLine } from '../../src/push/ndjson-scan.js';
import { eachLine } from '../../src/push/lines.js';
import { merge, scanSegment } from '../../src/push/scan-segment.js';
import { sendRecord, validateLine } from '../../src/push/ndjson.js';
import { Chunk } from '../../src/push/push.js';
import { parseExactJson } from '../../src/contract/connector-wire.js';
import { tempDir } from '../helpers/cli.js';

const sc = new LineScan();

/** Runs the fast path on one line the way eachLine hands it over (a newline after it). */
function fast(
  line: string,
): { account: string; balance?: string; reserved?: string; externalId: string; wire: string } | undefined {
  const b = Buffer.from(`${line}\n`);
  const end = b.length - 1;
  if (!scanLine(b, 0, end, sc)) return undefined;
  const c = new Chunk();
  c.addScanned(b, sc, 0, 1);
  return {
    account: b.toString('latin1', sc.accountStart, sc.accountEnd),
    balance: sc.balanceStart >= 0 ? b.toString('latin1', sc.balanceStart, sc.balanceEnd) : undefined,
    reserved: sc.reservedStart >= 0 ? b.toString('latin1', sc.reservedStart, sc.reservedEnd) : undefined,
    externalId: c.idOf(0),
    wire: c.wireOf(0),
  };
}

const plainText = fc
  .string({
    unit: fc.constantFrom('a', 'Z', '0', ' ', '-', '_', '.', ',', ':', '{', '}', '[', ']'),
    minLength: 1,
    maxLength: 30,
  })
  .filter((s) => s.trim() !== '');
const oddText = fc.string({
  unit: fc.constantFrom('a', ' ', '"', '\\', '\t', 'é', '😀', '\u0001', '\u00a0'),
  maxLength: 8,
});
const plainNumber = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 3 }))
  .map(([neg, u, scale]) => {
    const s = u.toString().padStart(scale + 1, '0');
    return `${neg ? '-' : ''}${scale ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s}`;
  });
const oddNumber = fc.constantFrom(
  '1e3',
  '-0',
  '0.10',
  '01',
  '1.',
  '-',
  '12345678901234567',
  '1E-50',
  '1e400',
  '.5',
  '+1',
  'NaN',
  '9007199254740993',
);
const value = (kind: 'text' | 'number' | 'date' | 'type' | 'bool') =>
  fc.oneof(
    {
      weight: 40,
      arbitrary:
        kind === 'text'
          ? plainText.map((s) => JSON.stringify(s))
          : kind === 'number'
            ? plainNumber
            : kind === 'date'
              ? fc.integer({ min: 0, max: 2e12 }).map(String)
              : kind === 'type'
                ? fc.constantFrom('"DEFAULT"', '"TRANSFER"', '"PAYMENT"')
                : fc.constantFrom('true', 'false'),
    },
    { weight: 1, arbitrary: oddText.map((s) => JSON.stringify(s)) },
    { weight: 1, arbitrary: oddNumber },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'null',
        'true',
        '""',
        '"   "',
        '{}',
        '[]',
        '{"PENDING_IDS":["x"]}',
        '"WITHDRAWAL"',
        '"default"',
        'tru',
        '"x"x',
      ),
    },
  );
const member = (key: string, kind: Parameters<typeof value>[0], optional: boolean) =>
  optional
    ? fc.option(
        value(kind).map((v) => [key, v] as const),
        { nil: undefined, freq: 2 },
      )
    : fc.oneof(
        { weight: 40, arbitrary: value(kind).map((v) => [key, v] as const) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      );

const line = fc
  .record({
    members: fc.tuple(
      member('account', 'text', false),
      member('externalId', 'text', false),
      member('amount', 'number', false),
      member('date', 'date', false),
      member('description', 'text', false),
      member('type', 'type', false),
      member('balance', 'number', true),
      member('reservedAmount', 'number', true),
      member('pending', 'bool', true),
      member('platformId', 'text', true),
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            ['payload', 'null'] as const,
            ['payload', '{"a":1.50}'] as const,
            ['note', '"x"'] as const,
            ['n\\u0041me', '1'] as const,
            ['extra', '[1,2]'] as const,
          ),
        },
      ),
    ),
    order: fc.array(fc.nat(), { minLength: 11, maxLength: 11 }),
    duplicate: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat(10) }),
    spacing: fc.constantFrom('', ' ', '\t', '  ', '\r'),
  })
  .map(({ members, order, duplicate, spacing: sp }) => {
    const present = members
      .map((m, i) => [m, order[i]!] as const)
      .filter(([m]) => m !== undefined)
      .sort((a, b) => a[1] - b[1])
      .map(([m]) => m!);
    if (duplicate !== undefined && present.length > 0) present.push(present[duplicate % present.length]!);
    return `${sp}{${sp}${present.map(([k, v]) => `"${k}"${sp}:${sp}${v}`).join(`${sp},${sp}`)}${sp}}${sp}`;
  });

describe('ndjson fast path', () => {
  test('agrees with the general path on every line it accepts, in both passes', () => {
    let accepted = 0;
    fc.assert(
      fc.property(line, (text) => {
        const f = fast(text);
        if (!f) return;
        accepted++;
        const v = validateLine(7, text);
        expect(v.error).toBeUndefined();
        expect(f.account).toBe(v.account);
        expect(f.balance).toBe(v.balance?.text);
        expect(f.reserved).toBe(v.reservedAmount?.text);
        const s = sendRecord(7, text);
        expect(f.externalId).toBe(s.externalId);
        expect(parseExactJson(f.wire)).toEqual(parseExactJson(s.json!));
      }),
      { numRuns: 3000, seed: 11 },
    );
    expect(accepted).toBeGreaterThan(600);
  });

  test('takes the plain lines, numbers and spacing as written', () => {
    const lines = [
      '{"account":"acc-0","balance":1000.25,"externalId":"tx-1","amount":-12.50,"date":1600000000000,"description":"Merchant 1","type":"DEFAULT"}',
      '  { "externalId" : "tx 2" , "amount" : 0.10 , "date" : 1600000000000 , "description" : "a b" , "type" : "PAYMENT" , "pending" : false , "account" : "A" , "platformId" : null , "payload" : null , "x" : [] }',
    ];
    const accepted = lines.map((l) => fast(l));
    expect(accepted[0]).toEqual({
      account: 'acc-0',
      balance: '1000.25',
      reserved: undefined,
      externalId: 'tx-1',
      wire: '{"externalId":"tx-1","amount":-12.50,"date":1600000000000,"description":"Merchant 1","type":"DEFAULT"}',
    });
    // a nested value anywhere sends the line the general way
    expect(accepted[1]).toBeUndefined();
    const second = fast(lines[1]!.replace(', "x" : []', ''))!;
    expect(second.wire).toBe(
      '{"externalId" : "tx 2" , "amount" : 0.10 , "date" : 1600000000000 , "description" : "a b" , "type" : "PAYMENT" , "pending" : false,"platformId" : null , "payload" : null}',
    );
    for (const declined of [
      '{"account":"a","externalId":"t","amount":1e3,"date":1600000000000,"description":"d","type":"DEFAULT"}',
      '{"account":"a","externalId":"t\\u0041","amount":1,"date":1600000000000,"description":"d","type":"DEFAULT"}',
      '{"account":"a","externalId":"t","amount":1,"date":1600000000000,"description":"é","type":"DEFAULT"}',
    ]) {
      expect(fast(declined)).toBeUndefined();
      expect(validateLine(1, declined).error).toBeUndefined();
    }
    // a member given twice: declined here, and refused the general way (the last would win unseen)
    const twice =
      '{"account":"a","account":"b","externalId":"t","amount":1,"date":1600000000000,"description":"d","type":"DEFAULT"}';
    expect(fast(twice)).toBeUndefined();
    expect(validateLine(1, twice).error).toContain('"account" appears twice in the line');
  });

  test('eachLine: numbers every line, drops one CR, hands over a last line without a newline, and grows for a long line', async () => {
    const dir = tempDir();
    const file = join(dir, 'lines.ndjson');
    const long = 'x'.repeat(3 << 20);
    writeFileSync(file, `a\r\n\nb\n${long}\nlast\r`);
    const seen: Array<[number, string, number]> = [];
    await eachLine(file, (b, s, e, n) => {
      seen.push([n, b.toString('latin1', s, Math.min(e, s + 10)), e - s]);
      expect([10, 13]).toContain(b[e]);
    });
    expect(seen).toEqual([
      [1, 'a', 1],
      [2, '', 0],
      [3, 'b', 1],
      [4, 'xxxxxxxxxx', long.length],
      [5, 'last', 4],
    ]);
  });

  test('a file scanned in ranges and merged gives what one scan from the top gives, cut at every line', async () => {
    const dir = tempDir();
    const lines = [
      '{"account":"a","balance":1.00,"externalId":"t1","amount":1,"date":1600000000000,"description":"d","type":"DEFAULT"}',
      '',
      '{"account":"b","externalId":"t2","amount":2,"date":1600000000000,"description":"d","type":"DEFAULT"}\r',
      '{"account":"a","balance":2.50,"reservedAmount":0.10,"externalId":"t3","amount":3,"date":1600000000000,"description":"caf\u00e9","type":"DEFAULT"}',
      '   ',
      '{"account":"c","balance":-7,"externalId":"t4","amount":4,"date":1600000000000,"description":"é","type":"DEFAULT"}',
      '{"account":"b","balance":9.99,"externalId":"t5","amount":5,"date":1600000000000,"description":"d","type":"DEFAULT"}',
      '{"account":"a","externalId":"t6","amount":6,"date":1600000000000,"description":"d","type":"DEFAULT"}',
    ];
    for (const bad of [undefined, 4, 7]) {
      const text = lines.map((l, i) => (i + 1 === bad ? '{"account":"a","amount":"x"}' : l)).join('\n');
      const file = join(dir, `ranges-${bad}.ndjson`);
      writeFileSync(file, text);
      const { ids: _ids, ...whole } = await scanSegment(file);
      const bytes = Buffer.from(text);
      const cuts = [...bytes.keys()].filter((i) => bytes[i] === 10).map((i) => i + 1);
      for (const cut of cuts) {
        for (const cut2 of cuts.filter((c) => c > cut)) {
          const parts = [
            await scanSegment(file, { start: 0, end: cut }),
            await scanSegment(file, { start: cut, end: cut2 }),
            await scanSegment(file, { start: cut2 }),
          ];
          expect(merge(parts)).toEqual(whole);
        }
      }
      if (bad === undefined) {
        expect(whole.problems).toEqual([]);
        expect(whole.accounts).toEqual([
          { externalId: 'a', firstLine: 1, transactions: 3, balance: '2.50', reservedAmount: '0.10' },
          { externalId: 'b', firstLine: 3, transactions: 2, balance: '9.99' },
          { externalId: 'c', firstLine: 6, transactions: 1, balance: '-7' },
        ]);
      } else expect(whole.problems.map((p) => p.line)).toEqual([bad]);
    }
  });
});
