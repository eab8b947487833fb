// The connector's "must be a number" (CLI input and sandbox bodies alike) says what came, and for a
// decimal comma the amount it most likely meant; a thousands separator gets no such guess.
import { expect, test } from 'vitest';
import { amount, notANumber, WireError } from '../../src/contract/connector-wire.js';

test.each([
  ['-12,50', 'must be a number, got "-12,50" (a decimal comma? write -12.50, without quotes)'],
  [' 7,5 ', 'must be a number, got "7,5" (a decimal comma? write 7.5, without quotes)'],
  ['-12.50', 'must be a number, got "-12.50" (a string: write the number without quotes)'],
  ['1,234', 'must be a number, got "1,234"'],
  ['12.50 SEK', 'must be a number, got "12.50 SEK"'],
  [true, 'must be a number, got true'],
  [{ value: 1 }, 'must be a number, got {"value":1}'],
  ['x'.repeat(100), `must be a number, got "${'x'.repeat(40)}"`],
])('a JSON value %j: %s', (v, message) => {
  expect(notANumber(v)).toBe(message);
});

test.each([
  ['-12,50', 'must be a number, got "-12,50" (a decimal comma? write -12.50)'],
  ['1,234', 'must be a number, got "1,234"'],
])('a csv cell %j: %s', (v, message) => {
  expect(notANumber(v, true)).toBe(message);
});

test('a body amount that is not a number is that WireError, naming the path', () => {
  expect(() => amount({ amount: '-12,50' }, 'amount', 'transactions[3].', true)).toThrow(WireError);
  expect(() => amount({ amount: '-12,50' }, 'amount', 'transactions[3].', true)).toThrow(
    /^transactions\[3\]\.amount: must be a number, got "-12,50" \(a decimal comma\? write -12\.50, without quotes\)$/,
  );
  expect(amount({ amount: -12.5 }, 'amount', '', true)).toBe('-12.5');
});
