import { describe, expect, test } from 'vitest';
import { addDecimals, decimalString, formatAmount, parseDecimal } from '../../src/output/money.js';

describe('exact decimal amounts', () => {
  test('unscaledValue / 10^scale on the digits', () => {
    expect(decimalString('-5', '2')).toBe('-0.05');
    expect(decimalString('5', 2)).toBe('0.05');
    expect(decimalString('-1250', '2')).toBe('-12.50');
    expect(decimalString('0', '2')).toBe('0.00');
    expect(decimalString('-0', '2')).toBe('0.00');
    expect(decimalString('123', '0')).toBe('123');
    expect(decimalString('12', '-2')).toBe('1200');
    expect(decimalString('1', '3')).toBe('0.001');
    expect(decimalString('00042', '1')).toBe('4.2');
  });

  test('values beyond float precision stay exact', () => {
    expect(decimalString('123456789012345678901', '2')).toBe('1234567890123456789.01');
    expect(decimalString(9007199254740993n, 0)).toBe('9007199254740993');
  });

  test('rejects what is not an integer', () => {
    expect(() => decimalString('1.5', '2')).toThrow();
    expect(() => decimalString('abc', '2')).toThrow();
    expect(() => decimalString('1', 'x')).toThrow();
  });

  test('formatAmount adds the currency', () => {
    expect(formatAmount({ currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-5' } })).toBe('-0.05 SEK');
  });

  test('parse and add without floats', () => {
    expect(parseDecimal('-0.05')).toEqual({ unscaledValue: -5n, scale: 2 });
    expect(addDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(addDecimals(['-98.5', '100', '0.005'])).toBe('1.505');
    expect(() => parseDecimal('1e5')).toThrow();
  });
});
