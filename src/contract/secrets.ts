// Comparing secrets (client secrets, tokens, webhook secrets, OAuth state) in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(s: string | Buffer): Buffer {
  return createHash('sha256').update(s).digest();
}

/** Constant time whatever the lengths: both sides are hashed first. */
export function secretsEqual(expected: string, given: string): boolean {
  return timingSafeEqual(digest(expected), digest(given));
}
