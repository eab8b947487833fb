// The sandbox's request target split without the URL parser (src/sandbox/router.ts splitTarget):
// wherever it answers, it answers what new URL(target, base) gives; a target it leaves to the URL
// parser (dot segments, a leading //, characters to percent-encode) it refuses.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { splitTarget } from '../../src/sandbox/router.js';

const url = (target: string) => {
  const u = new URL(target, 'http://sandbox.local');
  return { path: u.pathname, search: u.search };
};

test('a plain target is split as the URL parser splits it', () => {
  for (const t of ['/version', '/data/v2/transactions?pageSize=5&pageToken=abc', '/a/b/?', '/x?y?z', '/a%41b/c'])
    expect(splitTarget(t)).toStrictEqual(url(t));
});

test('targets the URL parser changes are left to it', () => {
  for (const t of ['//evil/x', '/a/../b', '/a/./b', '/a/%2e%2e/b', '/a b', '/a#f', '/caf\u00e9', '/a\\b', 'x', '/.'])
    expect(splitTarget(t)).toBeUndefined();
});

test('any target: undefined, or exactly what new URL gives', () => {
  const chars = fc.constantFrom(...'/?.%#\\ "<>`{}|^\'aZ09-_~!$&()*+,;=:@é\u0000'.split(''));
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 24 }), (cs) => {
      const target = `/${cs.join('')}`;
      const split = splitTarget(target);
      if (split) expect(split).toStrictEqual(url(target));
    }),
    { numRuns: 20_000, seed: 20 },
  );
});
