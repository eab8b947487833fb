// The sandbox's --data file as JSON lines (format 2), written and read a line at a time: a restart
// gets back everything the sandbox held (records, their Sets and Maps, every area), a file written by
// the previous release (format 1, one JSON document) still loads, and a file cut short or added to
// is refused and left alone. (Format 1 was one JSON.stringify of the whole state, which V8 refuses
// past about 512 MB: some 1.2 million transactions could never be saved.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { userWithAccounts } from '../connector/helpers.js';
import { call } from '../connector/helpers.js';
import { Persister } from '../../src/sandbox/persist.js';

const container = (ids: string[]) => ({
  type: 'REAL_TIME',
  transactionAccounts: [
    {
      externalId: 'acc-0',
      balance: 10.25,
      transactions: ids.map((externalId, i) => ({
        externalId,
        amount: -1.5 - i,
        date: 1_700_000_000_000 + i,
        description: `Caf\u00e9 \u2028 "${i}"`,
        type: 'DEFAULT',
      })),
    },
  ],
});

describe('the --data file', () => {
  test('a restart gets back every record and area, Sets and Maps included', async () => {
    const dataFile = join(tempDir(), 'state.json');
    const first = await startTestSandbox({ dataFile });
    await userWithAccounts(first, 'lines', 1);
    const ids = Array.from({ length: 2500 }, (_, i) => `sf-${i}`);
    const pushed = await call(first, 'POST', '/connector/users/lines/transactions', container(ids));
    expect(pushed.status, pushed.text).toBe(204);
    const before = first.sandbox.store.snapshot();
    await first.close();

    const text = readFileSync(dataFile, 'utf8');
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'bankctl-sandbox-state/2' });
    // one line a record: no line holds the state, so none can outgrow a string
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(50_000);
    expect(JSON.parse(lines.at(-2)!)).toEqual({ end: lines.length - 3 });

    const second = await startTestSandbox({ dataFile });
    try {
      const after = second.sandbox.store.snapshot();
      // every record under its id, in the same order (the table's own layout is its business)
      const records = (s: Record<string, unknown>) => [...(s.transactions as Map<string, unknown>)];
      expect(records(after)).toEqual(records(before));
      expect(records(after)).toHaveLength(2500);
      expect(after.clients).toEqual(before.clients); // scopes are a Set
      expect(after.users).toEqual(before.users);
      expect(after.accounts).toEqual(before.accounts);
      expect([after.seq, after.idCounter]).toEqual([before.seq, before.idCounter]);
      // areas are kept as saved until their module asks for them: compared as the file has them
      const areas = (s: Record<string, unknown>) =>
        JSON.parse(JSON.stringify(s.areas, (_k, v) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v)));
      expect(areas(after)).toEqual(areas(before));
    } finally {
      await second.close();
    }
  });

  test('a file of the previous release (format 1, one JSON document) still loads', async () => {
    const dataFile = join(tempDir(), 'old.json');
    const user = {
      id: 'a'.repeat(32),
      market: 'SE',
      locale: 'sv_SE',
      externalUserId: 'from-release-1',
      created: 1_700_000_000_000,
    };
    writeFileSync(
      dataFile,
      JSON.stringify({
        format: 'bankctl-sandbox-state/1',
        state: { users: { __map: [[user.id, user]] }, seq: 7, idCounter: 42, areas: {} },
      }),
    );
    const t = await startTestSandbox({ dataFile });
    try {
      expect(t.sandbox.store.users.get(user.id)).toMatchObject({ externalUserId: 'from-release-1' });
      await userWithAccounts(t, 'after-upgrade', 1);
    } finally {
      await t.close();
    }
    // saved in format 2 at the first change
    expect(JSON.parse(readFileSync(dataFile, 'utf8').split('\n')[0]!)).toMatchObject({
      format: 'bankctl-sandbox-state/2',
    });
  });

  test('a file cut short, or with lines after its trailer, is refused and left as it was', async () => {
    const dataFile = join(tempDir(), 'state.json');
    const t = await startTestSandbox({ dataFile });
    await userWithAccounts(t, 'torn', 1);
    await t.close();
    const whole = readFileSync(dataFile, 'utf8');
    const lines = whole.split('\n');
    const cut = `${lines.slice(0, -2).join('\n')}\n`; // the trailer gone
    const added = `${whole}["users","x",{}]\n`;
    for (const [text, reason] of [
      [cut, /ends before its trailer/],
      [added, /goes on after its trailer/],
    ] as const) {
      writeFileSync(dataFile, text);
      await expect(startTestSandbox({ dataFile })).rejects.toThrow(reason);
      expect(readFileSync(dataFile, 'utf8')).toBe(text);
    }
  });

  test('after a long snapshot the next waits four times as long: a large state is not rewritten every 250 ms', async () => {
    const t = await startTestSandbox();
    try {
      const store = t.sandbox.store;
      for (let i = 0; i < 60_000; i++) {
        const id = store.ids.next();
        store.transactions.set(id, {
          id,
          userId: 'u',
          accountId: 'a',
          amount: `-${i}.50`,
          description: `Shop ${i}`,
        } as never);
      }
      const persister = new Persister(store, join(tempDir(), 'state.json'), 20);
      const written = async (n: number) => {
        while (persister.writes < n) await new Promise((r) => setTimeout(r, 5));
      };
      persister.markDirty();
      await written(1);
      const took = persister.lastWriteMs;
      expect(took).toBeGreaterThan(5);
      const since = performance.now();
      persister.markDirty();
      await written(2);
      expect(performance.now() - since).toBeGreaterThanOrEqual(4 * took - 5);
      persister.close();
    } finally {
      await t.close();
    }
  });
});
