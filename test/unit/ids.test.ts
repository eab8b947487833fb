// The duplicate-id candidates of a push's validation pass: sorted runs of 64-bit hashes and one merge
// of them must name exactly the hashes that occur more than once, wherever the copies fall (the same
// run, two runs, a worker's runs adopted), and nothing else.
import { describe, expect, it } from 'vitest';
import { hashKey, idOfString, IdRuns, repeatedHashes, RUN_IDS } from '../../src/push/ids.js';

/** The repeated hashes of ids, the slow and obvious way. */
function naive(ids: string[]): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const id of ids)
    idOfString(id, (a, b) => {
      const k = hashKey(a, b);
      if (seen.has(k)) out.add(k);
      seen.add(k);
    });
  return out;
}

const keyOf = (id: string): string => {
  let k = '';
  idOfString(id, (a, b) => (k = hashKey(a, b)));
  return k;
};

/** A small deterministic generator (the test must fail the same way twice). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('duplicate externalIds by sorted hash runs', () => {
  it('finds a copy in the same run, in a later run and across adopted runs, and nothing more', () => {
    const n = RUN_IDS * 2 + 1234; // three runs, the last one partial
    const ids = Array.from({ length: n }, (_, i) => `tx-${i}`);
    ids[500] = 'tx-3'; // same run
    ids[RUN_IDS + 7] = 'tx-10'; // the next run
    ids[n - 1] = 'tx-1'; // the partial last run
    const main = new IdRuns();
    const worker = new IdRuns();
    ids.forEach((id, i) => idOfString(id, (i < n / 2 ? main : worker).sink));
    main.adopt(worker.runs());
    const runs = main.runs();
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const found = repeatedHashes(runs);
    expect(found).toEqual(new Set([keyOf('tx-3'), keyOf('tx-10'), keyOf('tx-1')]));
    expect(found).toEqual(naive(ids));
  });

  it('agrees with a set on random inputs, three copies and empty runs included', () => {
    const next = rng(20261128);
    for (let round = 0; round < 20; round++) {
      const count = Math.floor(next() * 3000);
      const ids = Array.from({ length: count }, () => `id-${Math.floor(next() * count * 4)}`);
      const parts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => new IdRuns());
      ids.forEach((id) => idOfString(id, parts[Math.floor(next() * parts.length)]!.sink));
      const runs = parts.flatMap((p) => p.runs());
      expect(repeatedHashes(runs)).toEqual(naive(ids));
    }
  });

  it('a file without repeats has none (no false candidate from the order of the merge)', () => {
    const a = new IdRuns();
    for (let i = 0; i < RUN_IDS + 10; i++) idOfString(`unique-${i}`, a.sink);
    expect(repeatedHashes(a.runs()).size).toBe(0);
    expect(repeatedHashes([]).size).toBe(0);
  });
});

describe('disposing of the runs', () => {
  it('hands every run buffer back (detached) and counts its bytes; the runs are then empty', () => {
    const ids = new IdRuns();
    for (let i = 0; i < RUN_IDS + 5; i++) idOfString(`tx-${i}`, ids.sink);
    const runs = ids.runs();
    expect(runs).toHaveLength(2);
    const buffers = runs.map((r) => r.buffer);
    expect(ids.dispose()).toBe(2 * (2 * RUN_IDS * 4));
    for (const b of buffers) expect(b.byteLength).toBe(0);
    expect(ids.runs()).toEqual([]);
    expect(repeatedHashes(ids.runs()).size).toBe(0);
  });
});
