// Tables in linear time. cli-table3 lays a table out in time that grows with the square of its
// rows (20,000 rows took a minute, 300,000 overflowed the stack), so it draws only small tables;
// a longer one is drawn here, in the same style, row by row: the column widths come from the
// first rows (and the headers), and a later cell wider than its column wraps inside it.

/** Up to this many rows a table is laid out whole by cli-table3. */
export const SMALL_TABLE = 200;

const CHARS = {
  top: ['┌', '┬', '┐'],
  mid: ['├', '┼', '┤'],
  bottom: ['└', '┴', '┘'],
  line: '─',
  side: '│',
} as const;

/** Display width of one code point: 0 for combining marks, 2 for East Asian wide ones. */
function charWidth(cp: number, ch: string): number {
  if (cp < 0x300) return 1;
  if (/\p{Mn}|\p{Me}|\p{Cf}/u.test(ch)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!, ch);
  return w;
}

/** The lines of a cell, each at most `width` wide. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (textWidth(line) <= width) {
      out.push(line);
      continue;
    }
    let cur = '';
    let w = 0;
    for (const ch of line) {
      const cw = charWidth(ch.codePointAt(0)!, ch);
      if (w + cw > width && cur !== '') {
        out.push(cur);
        cur = '';
        w = 0;
      }
      cur += ch;
      w += cw;
    }
    out.push(cur);
  }
  return out;
}

/** Draws rows as they come, with widths fixed by the first ones. */
export class StreamingTable {
  private readonly widths: number[];
  private started = false;

  constructor(
    private readonly head: string[],
    firstRows: string[][],
    private readonly headStyle: (s: string) => string = (s) => s,
  ) {
    this.widths = head.map((h, i) => {
      let w = Math.max(1, ...h.split('\n').map(textWidth));
      for (const r of firstRows) for (const l of (r[i] ?? '').split('\n')) w = Math.max(w, textWidth(l));
      return w;
    });
  }

  private rule(c: readonly [string, string, string]): string {
    return `${c[0]}${this.widths.map((w) => CHARS.line.repeat(w + 2)).join(c[1])}${c[2]}\n`;
  }

  private line(cells: string[], style: (s: string) => string = (s) => s): string {
    const wrapped = this.widths.map((w, i) => wrap(cells[i] ?? '', w));
    const height = Math.max(1, ...wrapped.map((l) => l.length));
    let out = '';
    for (let y = 0; y < height; y++) {
      out += CHARS.side;
      for (let i = 0; i < this.widths.length; i++) {
        const text = wrapped[i]![y] ?? '';
        const pad = ' '.repeat(this.widths[i]! - textWidth(text));
        out += ` ${text === '' ? '' : style(text)}${pad} ${CHARS.side}`;
      }
      out += '\n';
    }
    return out;
  }

  /** The text for these rows (the top border and the header before the first ones). */
  rows(rows: string[][]): string {
    let out = '';
    if (!this.started) {
      this.started = true;
      out += this.rule(CHARS.top) + this.line(this.head, this.headStyle);
    }
    for (const r of rows) out += this.rule(CHARS.mid) + this.line(r);
    return out;
  }

  end(): string {
    return (this.started ? '' : this.rows([])) + this.rule(CHARS.bottom);
  }
}
