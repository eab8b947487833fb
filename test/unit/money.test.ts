import { describe, expect, test } from 'vitest';
import { addDecimals, decimalString, formatAmount, parseDecimal } from '../../src/output/money.js';
import { stripControl } from '../../src/output/sanitize.js';

describe('exact decimal amounts', () => {
  test('unscaledValue / 10^scale on the digits', () => {
    expect(decimalString('-5', '2')).toBe('-0.05');
    expect(decimalString('5', 2)).toBe('0.05');
    expect(decimalString('-1250', '2')).toBe('-12.50');
    expect(decimalString('0', '2')).toBe('0.00');
    expect(decimalString('-0', '2')).toBe('0.00');
    expect(decimalString('123', '0')).toBe('123');
    expect(decimalString('12', '-2')).toBe('1200');
    expect(decimalString('0', '-2')).toBe('0');
    expect(decimalString('-000', '-3')).toBe('0');
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

// A currency code with control characters is shown escaped, never repaired into a valid code:
// stripped, "ESC]0;x BEL SE RLO K" read as SEK, a value the service did not send.
describe('a garbage currency code', () => {
  test('shown as its escaped text in quotes; a plain code as it is', () => {
    const amount = (currencyCode: string) => ({ currencyCode, value: { unscaledValue: '500', scale: '2' } });
    expect(formatAmount(amount('SEK'))).toBe('5.00 SEK');
    const shown = formatAmount(amount('\x1b]0;x\x07SE\u202eK'));
    expect(shown).toBe('5.00 "\\u001b]0;x\\u0007SE\\u202eK"');
    expect(shown).not.toMatch(/ SEK$/);
    expect(stripControl(shown)).toBe(shown);
    expect(formatAmount(amount('USDC'))).toBe('5.00 USDC');
  });
});
