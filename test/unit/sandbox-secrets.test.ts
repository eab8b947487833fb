// Sandbox secrets (client secrets, connector tokens) are pasted into command lines: none may start
// with "-", where `bankctl config set connector-token-next TOKEN` would read it as an option.
import { describe, expect, test } from 'vitest';
import { IdSource } from '../../src/sandbox/store.js';

describe('sandbox secrets', () => {
  test('random and seeded: 4,000 of each, none starts with "-", all distinct, base64url of 32 characters', () => {
    for (const ids of [new IdSource(), new IdSource(7)]) {
      const seen = new Set<string>();
      for (let i = 0; i < 4000; i++) {
        const s = ids.secret(24);
        expect(s).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
        seen.add(s);
      }
      expect(seen.size).toBe(4000);
    }
  });
});
