// The terminal guard's filter on its own: what passes and what does not.
import { describe, expect, test } from 'vitest';
import { TerminalFilter } from '../../src/output/terminal.js';

describe('the guard itself', () => {
  const run = (mode: 'data' | 'ui', parts: string[]) => {
    const f = new TerminalFilter(mode);
    return parts.map((p) => f.push(p)).join('');
  };
  test('sequences split across writes are still removed; colour passes; CRLF kept, a lone CR not', () => {
    expect(run('data', ['a\x1b', ']0;ti', 'tle\x07b'])).toBe('ab');
    expect(run('data', ['\x1b[', '2', 'J x'])).toBe(' x');
    expect(run('data', ['\x1b[36mhead\x1b[39m'])).toBe('\x1b[36mhead\x1b[39m');
    expect(run('data', ['\x1b[8mhidden\x1b[0m'])).toBe('hidden\x1b[0m');
    expect(run('data', ['a,b\r', '\nc\rd'])).toBe('a,b\r\ncd');
    expect(run('data', ['\x1b[6n'])).toBe('');
    // the 8-bit CSI is never turned into ESC[ (which every terminal obeys), colour or not
    expect(run('data', ['\x9b30;40mhid\x9b0m'])).toBe('hid');
    expect(run('ui', ['\x9b2K\x9b31mx'])).toBe('x'); // a device status query would type its answer into stdin
    expect(run('ui', ['\x1b[2K\x1b[1G\x1b[?25l\r'])).toBe('\x1b[2K\x1b[1G\x1b[?25l\r');
    expect(run('ui', ['\x1b[2J\x1b[H\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\'])).toBe('link');
    expect(run('data', ['é ✓ 日本'])).toBe('é ✓ 日本');
    // bidi embeddings, overrides and isolates (Trojan Source) are dropped in both modes; LRM/RLM pass
    expect(run('data', ['a\u202eb\u2066c\u2069\u202cd\u200f'])).toBe('abcd\u200f');
    expect(run('ui', ['\u202aé\u202b\u202d'])).toBe('é');
  });
});
