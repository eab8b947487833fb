// The real (inquirer) prompter keeps what it shows from the network to one line: a line break in a
// bank's field description, a provider's name or a choice's description (LF, CR, U+2028, U+2029)
// would otherwise draw a line of its own under the question, such as a fake "? Password" prompt.
import { describe, expect, test } from 'vitest';
import { testIO } from '../../src/io.js';
import { createPrompter } from '../../src/prompts/create.js';
import { singleLine } from '../../src/output/sanitize.js';

const FAKE = 'Card number\n? Password\r\u2028? PIN\u2029done\x1b[2J';

/** The lines the prompt drew (its cursor movements and erasing taken away). */
const lines = (text: string): string[] =>
  text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n|\r|\u2028|\u2029/)
    .map((l) => l.trim())
    .filter(Boolean);

describe('prompts show network text on one line', () => {
  test('input: the message is one line, the answer is what was typed', async () => {
    const io = testIO();
    const answer = createPrompter(io, false).input({ message: FAKE });
    io.stdinWrite('4711\r');
    await expect(answer).resolves.toBe('4711');
    const drawn = lines(io.err());
    expect(drawn.some((l) => l.startsWith('? Password') || l.startsWith('? PIN'))).toBe(false);
    expect(io.err()).toContain('Card number ? Password  ? PIN done');
    expect(io.err()).not.toMatch(/[\u2028\u2029]/);
  });

  test('select: choice names and descriptions are one line each', async () => {
    const io = testIO();
    const answer = createPrompter(io, false).select({
      message: 'Provider',
      choices: [
        { name: 'Bank A\n? Password', value: 'a', description: 'first\u2028? Code' },
        { name: 'Bank B', value: 'b' },
      ],
    });
    io.stdinWrite('\r');
    await expect(answer).resolves.toBe('a');
    const drawn = lines(io.err());
    expect(drawn.some((l) => l.startsWith('? Password') || l.startsWith('? Code'))).toBe(false);
    expect(io.err()).toContain('Bank A ? Password');
  });

  test('singleLine: every kind of line break is a space, control sequences are gone, other text kept', () => {
    expect(singleLine('a\r\nb\rc\nd\u2028e\u2029f\u0085g\vh\fi\tj')).toBe('a b c d e f g h i j');
    expect(singleLine('Rent \x1b[31mpaid\x1b[0m')).toBe('Rent paid');
    expect(singleLine('Café ✓ \u200f')).toBe('Café ✓ \u200f');
  });
});
