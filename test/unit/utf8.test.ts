// The push's UTF-8 check against Node's own: firstBadByte finds a bad byte exactly when isUtf8 says
// the bytes are not UTF-8, and the bytes before it always are; a file read in pieces names the line
// and column of its first bad byte wherever the reads are cut.
import { describe, expect, test } from 'vitest';
import { isUtf8 } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { firstBadByte, NotUtf8Error, Utf8Reads } from '../../src/fs/utf8.js';

// a small deterministic generator, so a failure can be replayed
function random(seed: number): () => number {
  let x = seed;
  return () => ((x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0) >>> 8) & 0xff;
}

const interesting = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];

describe('firstBadByte', () => {
  test('agrees with isUtf8 on 200,000 random byte strings rich in lead and continuation bytes', () => {
    const next = random(7);
    const wrong: string[] = [];
    for (let n = 0; n < 200_000; n++) {
      const len = 1 + (next() % 8);
      const b = Buffer.alloc(len);
      for (let i = 0; i < len; i++) b[i] = next() < 128 ? interesting[next() % interesting.length]! : next();
      const bad = firstBadByte(b, 0, len);
      if (bad < 0 !== isUtf8(b) || (bad >= 0 && !isUtf8(b.subarray(0, bad)))) wrong.push(b.toString('hex'));
    }
    expect(wrong).toEqual([]);
  });

  test('every form the standard forbids, and the extremes it allows', () => {
    const bad = ['c0af', 'e080af', 'f08080af', 'eda080', 'f4908080', 'f5808080', '80', 'e282', 'ff'];
    for (const hex of bad) expect(firstBadByte(Buffer.from(hex, 'hex'), 0, hex.length / 2), hex).toBe(0);
    const good = ['7f', 'c280', 'dfbf', 'e0a080', 'ed9fbf', 'ee8080', 'f0908080', 'f48fbfbf'];
    for (const hex of good) expect(firstBadByte(Buffer.from(hex, 'hex'), 0, hex.length / 2), hex).toBe(-1);
  });
});

describe('Utf8Reads', () => {
  const dir = tempDir();
  async function check(bytes: Buffer, cuts: number[]): Promise<NotUtf8Error | undefined> {
    const file = join(dir, `f-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, bytes);
    const r = new Utf8Reads(file);
    let at = 0;
    try {
      for (const c of [...cuts, bytes.length]) {
        await r.check(bytes.subarray(at, c));
        at = c;
      }
      await r.end();
    } catch (err) {
      if (err instanceof NotUtf8Error) return err;
      throw err;
    }
    return undefined;
  }

  test('a good character cut by any read is no problem; a bad byte is named by its line and column wherever the reads end', async () => {
    const good = Buffer.from('a\u00e9\nb\u20ac\n\u{1F4B0}z\n');
    for (let cut = 0; cut <= good.length; cut++) expect(await check(good, [cut]), `cut ${cut}`).toBeUndefined();
    const bad = Buffer.concat([Buffer.from('one\ntw\u00e9o '), Buffer.from([0xe9]), Buffer.from(' x\n')]);
    for (let cut = 0; cut <= bad.length; cut++) {
      const err = await check(bad, [cut]);
      expect(err?.line, `cut ${cut}`).toBe(2);
      expect(err?.problem).toBe('not valid UTF-8 (byte 0xE9 at column 6): save the file as UTF-8');
    }
  });

  test('a sequence left unfinished at the end of the file', async () => {
    const err = await check(Buffer.from([0x61, 0x0a, 0x62, 0xf0, 0x9f, 0x92]), [4]);
    expect(err?.line).toBe(2);
    expect(err?.problem).toContain('byte 0xF0 at column 2');
  });

  test('a byte order mark does not count as a column', async () => {
    const err = await check(Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xff]), []);
    expect(err?.problem).toContain('byte 0xFF at column 2');
  });
});
