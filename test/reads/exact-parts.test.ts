// exactParts reads the store's usual decimals without a regex: the same answers as the regex form.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { exactParts } from '../../src/contract/decimal.js';

/** exactParts as it was, by one regex, for any text. */
function byRegex(text: string): { unscaledValue: string; scale: string } {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return { unscaledValue: '0', scale: '0' };
  const neg = m[1] === '-';
  let digits = (m[2] ?? '') + (m[3] ?? '');
  let scale = (m[3] ?? '').length - Number(m[4] ?? 0);
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  digits = digits.replace(/^0+(?=\d)/, '') || '0';
  const zero = /^0+$/.test(digits);
  return { unscaledValue: `${neg && !zero ? '-' : ''}${digits}`, scale: String(scale) };
}

test('exactParts gives what the regex form gives', () => {
  const decimal = fc
    .tuple(
      fc.constantFrom('', '-', '+', ' '),
      fc.stringMatching(/^[0-9]{0,25}$/),
      fc.option(fc.stringMatching(/^[0-9]{0,45}$/)),
      fc.constantFrom('', '', 'e3', 'E-2', '.', 'x', ' '),
    )
    .map(([s, i, f, tail]) => `${s}${i}${f === null ? '' : `.${f}`}${tail}`);
  fc.assert(
    fc.property(fc.oneof(decimal, fc.string({ maxLength: 8 })), (t) => {
      expect(exactParts(t)).toStrictEqual(byRegex(t));
    }),
    { numRuns: 5000, seed: 9 },
  );
  for (const t of [
    '0',
    '-0',
    '-0.00',
    '0.05',
    '-0.05',
    '10',
    '10.50',
    '007.10',
    '-98.50',
    '1.5e3',
    '',
    '-',
    '.5',
    '5.',
    '1..2',
    '--1',
  ])
    expect(exactParts(t)).toStrictEqual(byRegex(t));
});
