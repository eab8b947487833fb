// Trojan Source in bank text: the bidirectional embeddings, overrides and isolates reorder what a
// terminal shows ("abc<RLO>fed" reads "abcdef"). Stripped from text for a terminal (cells, errors),
// escaped in JSON for a terminal (the same data, valid JSON); the plain marks LRM/RLM are kept.
import { describe, expect, test } from 'vitest';
import { stripControl } from '../../src/output/sanitize.js';
import { terminalJson } from '../../src/output/terminal.js';

const OVERRIDES = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('bidirectional controls', () => {
  test('stripped from text, marks kept', () => {
    for (const c of OVERRIDES) expect(stripControl(`Pay SE12${c}3456 now`)).toBe('Pay SE123456 now');
    expect(stripControl('שלום\u200f 12.50')).toBe('שלום\u200f 12.50');
  });

  test('escaped in JSON for a terminal, which still parses to the data sent', () => {
    const data = { d: 'abc\u202efed', m: 'x\u200fy' };
    const shown = terminalJson(JSON.stringify(data));
    expect(shown).toContain('abc\\u202efed');
    for (const c of OVERRIDES) expect(shown).not.toContain(c);
    expect(JSON.parse(shown)).toEqual(data);
  });
});

// What the stripper removes, it removes whole: a sequence it half-knew left its tail behind as
// letters in the cell ("cRent" from ESC c, "31mRED0m" from the single-byte C1 CSI).
describe('escape sequences leave nothing behind', () => {
  test.each([
    ['\x1b[2J\x1bcRent', 'Rent'],
    ['\x9b31mRED\x9b0m C1', 'RED C1'],
    ['\x1b(BA\x1b)0B', 'AB'],
    ['ok\x1b7 \x1b8done', 'ok done'],
    ['\x1b]0;title\x07x\x1b]8;;http://e\x1b\\link', 'xlink'],
  ])('%j', (text, shown) => {
    expect(stripControl(text)).toBe(shown);
  });
});
