// EventBus.emitMany is emit() n times, as far as anyone can see: the recent events and what each
// listener is told are the same; only contents nobody can see are never made.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { EventBus, type EventName, type SandboxEvent } from '../../src/sandbox/context.js';

const content = (i: number) => ({ n: i, nested: { k: `c-${i}` } });

function buses(before: number, wants: 'none' | 'some' | 'unfiltered') {
  const a = new EventBus();
  const b = new EventBus();
  const seen: { a: SandboxEvent[]; b: SandboxEvent[] } = { a: [], b: [] };
  // the transactions index's listener: update events only
  a.subscribe(
    () => undefined,
    (e) => e === 'transaction:update',
  );
  b.subscribe(
    () => undefined,
    (e) => e === 'transaction:update',
  );
  if (wants === 'some') {
    a.subscribe(
      (e) => e.userId === 'u1' && seen.a.push(e),
      (_e, userId) => userId === 'u1',
    );
    b.subscribe(
      (e) => e.userId === 'u1' && seen.b.push(e),
      (_e, userId) => userId === 'u1',
    );
  } else if (wants === 'unfiltered') {
    a.subscribe((e) => seen.a.push(e));
    b.subscribe((e) => seen.b.push(e));
  }
  for (let i = 0; i < before; i++) {
    a.emit({ event: 'credentials:update', userId: 'u0', content: { before: i }, orderKey: 'k' }, 5);
    b.emit({ event: 'credentials:update', userId: 'u0', content: { before: i }, orderKey: 'k' }, 5);
  }
  return { a, b, seen };
}

test('emitMany leaves the same recent events and tells listeners the same as emit() one by one', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 4100 }),
      fc.integer({ min: 0, max: 5100 }),
      fc.constantFrom('u0', 'u1'),
      fc.constantFrom<'none' | 'some' | 'unfiltered'>('none', 'some', 'unfiltered'),
      (before, n, userId, wants) => {
        const { a, b, seen } = buses(before, wants);
        const event: EventName = 'transaction:create';
        for (let i = 0; i < n; i++) a.emit({ event, userId, content: content(i), orderKey: `acc-${i % 3}` }, 42);
        let made = 0;
        b.emitMany(
          event,
          userId,
          n,
          (i) => `acc-${i % 3}`,
          (i) => (made++, content(i)),
          42,
        );
        expect(b.recent).toStrictEqual(a.recent);
        expect(seen.b).toStrictEqual(seen.a);
        // contents made: the ones kept, or all of them when a listener wants them
        if (wants === 'none' || (wants === 'some' && userId === 'u0')) expect(made).toBe(Math.min(n, b.recent.length));
        else expect(made).toBe(n);
      },
    ),
    { numRuns: 200, seed: 3 },
  );
});

test('a listener subscribed without a filter, or unsubscribed, is handled as before', () => {
  const bus = new EventBus();
  const got: number[] = [];
  const off = bus.subscribe((e) => got.push((e.content as { n: number }).n));
  bus.emitMany('transaction:create', 'u', 3, () => 'k', content, 1);
  off();
  bus.emitMany('transaction:create', 'u', 2, () => 'k', content, 1);
  expect(got).toEqual([0, 1, 2]);
  expect(bus.recent.map((e) => (e.content as { n: number }).n)).toEqual([0, 1, 2, 0, 1]);
  expect(bus.recent[0]).toStrictEqual({
    event: 'transaction:create',
    userId: 'u',
    content: content(0),
    orderKey: 'k',
    at: 1,
  });
});
