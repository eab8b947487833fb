// JSON numbers are read exactly: a number a double gives back digit for digit is a number, any other
// keeps its literal (an ExactNumber), and the writer writes that literal back.
import { expect, it } from 'vitest';
import { ExactNumber, readJson, writeJson } from '../../src/contract/exact-json.js';
import { exactText, balanceCell } from '../../src/commands/accounts/format.js';

it('keeps every number exact, wherever it is, and leaves strings alone', () => {
  const text =
    '{"accounts":[{"balance":12345678901234567.89,"favored":true,"ownership":1,"currencyDenominatedBalance":{"unscaledValue":1234567890123456789,"scale":2,"currencyCode":"SEK"},"name":"say \\"balance\\":1.5 here"}],"interest":0.0389,"n":0.1,"big":12345678901234567891,"huge":1e400,"trail":1.10}';
  const o = readJson<any>(text);
  expect(o.accounts[0].balance).toBeInstanceOf(ExactNumber);
  expect(String(o.accounts[0].balance)).toBe('12345678901234567.89');
  expect(String(o.accounts[0].currencyDenominatedBalance.unscaledValue)).toBe('1234567890123456789');
  expect(o.accounts[0].currencyDenominatedBalance.scale).toBe(2);
  expect(o.accounts[0].name).toBe('say "balance":1.5 here');
  expect(o.accounts[0].ownership).toBe(1);
  expect(o.interest).toBe(0.0389);
  expect(o.n).toBe(0.1);
  expect(balanceCell(o.accounts[0])).toBe('12345678901234567.89 SEK');
  // written back as sent: the same digits, numbers still numbers
  expect(writeJson(o)).toBe(text);
  expect(writeJson({ b: o.big })).toBe('{"b":12345678901234567891}');
  expect(writeJson([o.huge, o.trail], 2)).toBe('[\n  1e400,\n  1.10\n]');
});

it('a string that looks like a marker stays a string', () => {
  const o = readJson<any>('{"a":"\\u0000#1.5","b":1.50}');
  expect(o.a).toBe('\u0000#1.5');
  expect(writeJson(o)).toBe('{"a":"\\u0000#1.5","b":1.50}');
});

it('shows decimal texts exactly: negative, small, exponent, scale 0 and 3', () => {
  expect(exactText('-0.05')).toBe('-0.05');
  expect(exactText('250')).toBe('250');
  expect(exactText('1.005')).toBe('1.005');
  expect(exactText('1.5e3')).toBe('1500');
  expect(exactText('-2.5E-3')).toBe('-0.0025');
  expect(exactText('98765432109876543210.12')).toBe('98765432109876543210.12');
  expect(exactText(new ExactNumber('1.10'))).toBe('1.10');
  expect(exactText(1e21)).toBe('1000000000000000000000');
  expect(exactText(undefined)).toBe('');
  expect(balanceCell({ balance: null, currencyDenominatedBalance: null })).toBe('');
  expect(balanceCell({ currencyDenominatedBalance: { unscaledValue: '-5', scale: 2, currencyCode: 'EUR' } })).toBe(
    '-0.05 EUR',
  );
});
