// The ndjson reader's two passes must agree: what the first pass accepts, the second cuts out of
// the line as written (no re-serialisation), and the result is the same transaction.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { records, type InputRecord } from '../../src/push/input.js';
import { topLevelMembers } from '../../src/push/members.js';
import { parseExactJson, stringifyExact } from '../../src/contract/connector-wire.js';
import { tempDir } from '../helpers/cli.js';

const dir = tempDir();
const text = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\t', 'é', '😀', ',', ':', '{', '}', '[', ']', '\u0001'),
});
const amount = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 4 }))
  .map(([neg, u, scale]) => {
    const s = u.toString().padStart(scale + 1, '0');
    return `${neg ? '-' : ''}${scale ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s}`;
  });
const txLine = fc.record({
  account: fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== ''),
  externalId: text.filter((s) => s.trim() !== '' && s.length < 200 && !s.includes('\u0000')),
  amount,
  balance: amount,
  description: text.filter((s) => s.trim() !== ''),
  date: fc.integer({ min: 100_000_000_000, max: 2_000_000_000_000 }),
  pending: fc.option(fc.boolean(), { nil: undefined }),
  // the reference's payload keys (any other is refused): tags of letters and digits, any JSON date value
  payload: fc.option(
    fc.record(
      {
        TAGS: fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 3 }),
        PENDING_TRANSACTION_EXPIRATION_DATE: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
  spacing: fc.constantFrom('', ' ', '  ', '\t'),
  order: fc.boolean(),
});

describe('ndjson reader', () => {
  test("the second pass sends exactly the first pass's transaction, numbers as written", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(txLine, { minLength: 1, maxLength: 20 }), async (items) => {
        const lines = items.map((t) => {
          const sp = t.spacing;
          const parts = [
            `"account"${sp}:${sp}${JSON.stringify(t.account)}`,
            `"externalId":${sp}${JSON.stringify(t.externalId)}`,
            `"amount":${t.amount}`,
            `"balance":${sp}${t.balance}`,
            `"date":${t.date}`,
            `"description":${JSON.stringify(t.description)}`,
            `"type":"DEFAULT"`,
            ...(t.pending === undefined ? [] : [`"pending":${t.pending}`]),
            ...(t.payload === undefined ? [] : [`"payload":${sp}${JSON.stringify(t.payload)}`]),
          ];
          if (t.order) parts.reverse();
          return `${sp}{${sp}${parts.join(`${sp},${sp}`)}${sp}}${sp}`;
        });
        const file = join(dir, 'prop.ndjson');
        writeFileSync(file, lines.join('\n'));
        const first: InputRecord[] = [];
        for await (const b of records(file, 'ndjson', 'validate')) first.push(...b);
        const second: InputRecord[] = [];
        for await (const b of records(file, 'ndjson', 'send')) second.push(...b);
        expect(first.map((r) => r.error)).toEqual(first.map(() => undefined));
        expect(second).toHaveLength(first.length);
        second.forEach((s, i) => {
          const t = items[i]!;
          expect(s.account).toBe(t.account);
          expect(s.externalId).toBe(t.externalId);
          expect(first[i]!.balance!.text).toBe(t.balance);
          const sent = parseExactJson(s.json!) as Record<string, unknown>;
          expect(Object.keys(sent).sort()).toEqual(
            [
              'amount',
              'date',
              'description',
              'externalId',
              'type',
              ...(t.pending === undefined ? [] : ['pending']),
              ...(t.payload === undefined ? [] : ['payload']),
            ].sort(),
          );
          expect((sent.amount as { text: string }).text).toBe(t.amount);
          expect(sent.description).toBe(t.description);
        });
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  test('topLevelMembers finds members by offsets and refuses what is not an object', () => {
    const s = ' { "a" : "x,}\\"" , "b":[1,{"c":"]"}], "d" : -1.50e3 } ';
    const m = topLevelMembers(s)!;
    expect(m.map((x) => [x.key, s.slice(x.vStart, x.end)])).toEqual([
      ['a', '"x,}\\""'],
      ['b', '[1,{"c":"]"}]'],
      ['d', '-1.50e3'],
    ]);
    for (const bad of ['', '[]', '{"a"}', '{"a":1,', '{"a":"x}', '{a:1}']) expect(topLevelMembers(bad)).toBeUndefined();
    expect(stringifyExact(parseExactJson('{"x":-0.10,"y":[1e2]}'))).toBe('{"x":-0.10,"y":[1e2]}');
  });
});
