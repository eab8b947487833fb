// Money that arrives as JSON numbers is read as the literal's text, never through a double.
import { expect, it } from 'vitest';
import { parseExactJson } from '../../src/api/exact-json.js';
import { exactText, balanceCell } from '../../src/commands/accounts/format.js';

it('keeps the money keys exact and leaves everything else alone', () => {
  const text =
    '{"accounts":[{"balance":12345678901234567.89,"favored":true,"ownership":1,"currencyDenominatedBalance":{"unscaledValue":1234567890123456789,"scale":2,"currencyCode":"SEK"},"name":"say \\"balance\\":1.5 here"}],"interest":0.0389,"n":0.1}';
  const o = parseExactJson<any>(text);
  expect(o.accounts[0].balance).toBe('12345678901234567.89');
  expect(o.accounts[0].currencyDenominatedBalance.unscaledValue).toBe('1234567890123456789');
  expect(o.accounts[0].currencyDenominatedBalance.scale).toBe(2);
  expect(o.accounts[0].name).toBe('say "balance":1.5 here');
  expect(o.accounts[0].ownership).toBe(1);
  expect(o.interest).toBe('0.0389');
  expect(o.n).toBe(0.1);
  expect(balanceCell(o.accounts[0])).toBe('12345678901234567.89 SEK');
});

it('shows decimal texts exactly: negative, small, exponent, scale 0 and 3', () => {
  expect(exactText('-0.05')).toBe('-0.05');
  expect(exactText('250')).toBe('250');
  expect(exactText('1.005')).toBe('1.005');
  expect(exactText('1.5e3')).toBe('1500');
  expect(exactText('-2.5E-3')).toBe('-0.0025');
  expect(exactText('98765432109876543210.12')).toBe('98765432109876543210.12');
  expect(exactText(undefined)).toBe('');
  expect(balanceCell({ balance: null, currencyDenominatedBalance: null })).toBe('');
  expect(balanceCell({ currencyDenominatedBalance: { unscaledValue: '-5', scale: 2, currencyCode: 'EUR' } })).toBe(
    '-0.05 EUR',
  );
});
