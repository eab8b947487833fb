// shellWord: a value put back into a command line that a hint tells the user to run again. Checked by
// a real shell: what `sh` reads back from the word is the text itself.
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { shellWord } from '../../src/errors.js';

const texts = [
  'my-key-7',
  'Idempotency-Key: my-key-7',
  "it's",
  "''",
  'a "b" $HOME `id` \\ ; & | * ? ~ #',
  '',
  'ünïcode key',
];

test.each(texts)('sh reads %j back from its word unchanged', (text) => {
  const word = shellWord(text);
  const out = execFileSync('sh', ['-c', `printf '%s' ${word}`], { encoding: 'utf8' });
  expect(out).toBe(text);
});

test('a plain word stays bare; anything else is single-quoted', () => {
  expect(shellWord('my-key-7')).toBe('my-key-7');
  expect(shellWord('Idempotency-Key: k')).toBe("'Idempotency-Key: k'");
  expect(shellWord("it's")).toBe("'it'\\''s'");
});
