// Tables the way `gh` draws them: a header row, no rule lines, columns two spaces apart, numbers
// right-aligned on their decimal point, and a table that fits the terminal: long ids shortened in
// the middle (`6f00d8…f9fded`), free text cut with an ellipsis, dates and amounts kept whole.
// Drawn in linear time, row by row: the layout comes from the header and the first rows, and a
// later row is fitted into it, so 300,000 rows stream through back-pressure with flat memory.
// (cli-table3, used before, laid a table out in time growing with the square of its rows and
// could not fit a table to a width while streaming.)

/** Rows looked at before the layout is fixed (a table up to this long is laid out whole). */
export const SMALL_TABLE = 200;

import { breaksAsSpaces } from './sanitize.js';

const ELLIPSIS = '…';
/** The narrowest a shortened id gets: 6 characters, an ellipsis, 6 characters. */
const ID_MIN = 13;
/** The narrowest a free-text column gets before the table is allowed to overflow. */
const TEXT_MIN = 8;
const GAP = '  ';

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

const NARROW = /^[\x00-\u02ff]*$/;

export function textWidth(s: string): number {
  if (NARROW.test(s)) return s.length;
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!, ch);
  return w;
}

/** The text cut to `width` with an ellipsis at the end. */
export function truncateEnd(s: string, width: number): string {
  if (textWidth(s) <= width) return s;
  if (width <= 1) return width === 1 ? ELLIPSIS : '';
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = charWidth(ch.codePointAt(0)!, ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + ELLIPSIS;
}

/** An id cut in the middle: `6f00d8…f9fded` keeps both ends, which is how ids are told apart. */
export function truncateMiddle(s: string, width: number): string {
  if (s.length <= width) return s;
  if (width < 3) return truncateEnd(s, width);
  const keep = width - 1;
  const head = Math.ceil(keep / 2);
  return `${s.slice(0, head)}${ELLIPSIS}${s.slice(s.length - (keep - head))}`;
}

type Kind = 'id' | 'number' | 'date' | 'text';

/** An amount, with a currency code of any shape (a bank's USDC, sek): an amount cell is never cut. */
const NUMBER = /^[+-]?\d+(?:\.\d+)?(?: [A-Za-z0-9]{1,12})?$/;
const ID = /^(?=.*\d)[0-9A-Za-z_-]{20,}$/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/;

function kindOf(values: string[]): Kind {
  let seen = false;
  let number = true;
  let id = true;
  let date = true;
  for (const v of values) {
    if (v === '') continue;
    seen = true;
    if (number && !NUMBER.test(v)) number = false;
    if (id && !ID.test(v)) id = false;
    if (date && !DATE.test(v)) date = false;
    if (!number && !id && !date) return 'text';
  }
  if (!seen) return 'text';
  return number ? 'number' : date ? 'date' : id ? 'id' : 'text';
}

/** Where a number splits for decimal alignment: before its '.', else before the currency. */
function splitNumber(v: string): [string, string] {
  let i = v.indexOf('.');
  if (i < 0) i = v.indexOf(' ');
  if (i < 0) i = v.length;
  return [v.slice(0, i), v.slice(i)];
}

export interface TableOptions {
  /** The width to fit (Infinity: no limit, as when stdout is not a terminal). */
  width: number;
  /** Full values: nothing shortened, nothing cut. */
  wide?: boolean;
  /** Ids may be shortened in the middle (only on a terminal). */
  tty?: boolean;
  headStyle?: (s: string) => string;
}

/**
 * A cell on one line: line breaks (the Unicode line and paragraph separators too, and NEL, VT, FF)
 * and tabs (which would throw the columns after it) as spaces.
 */
const oneLine = breaksAsSpaces;

/** Draws rows as they come, in the layout the header and the first rows gave. */
export class Table {
  private readonly kinds: Kind[];
  private readonly widths: number[];
  /** Number columns: the width left of the decimal point, and right of it. */
  private readonly intW: number[];
  private readonly fracW: number[];
  private readonly head: string[];
  /** Text columns with spaces in them (descriptions, names) give way before single-word ones. */
  private readonly prose: boolean[] = [];
  /**
   * Text columns kept whole like amounts and dates: enum values (AWAITING_SUPPLEMENTAL_INFORMATION,
   * whose cut "AWAITIN…" could be any of three) and a first column of single words, which names the
   * row (two "availableBalance…" rows cannot be told apart).
   */
  private readonly keep: boolean[] = [];
  private started = false;

  constructor(
    head: string[],
    sample: string[][],
    private readonly opts: TableOptions,
  ) {
    // a key's words apart, as gh's headers are: providerName is PROVIDER NAME, not PROVIDERNAME
    this.head = head.map((h) =>
      oneLine(h)
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toUpperCase(),
    );
    const n = head.length;
    this.kinds = [];
    this.widths = [];
    this.intW = [];
    this.fracW = [];
    for (let i = 0; i < n; i++) {
      const values = sample.map((r) => oneLine(r[i] ?? ''));
      const kind = kindOf(values);
      this.kinds.push(kind);
      const prose = kind === 'text' && values.some((v) => v.includes(' '));
      this.prose.push(prose);
      this.keep.push(
        kind === 'text' && !prose && (i === 0 || values.every((v) => v === '' || /^[A-Z][A-Z0-9_]*$/.test(v))),
      );
      let w = textWidth(this.head[i]!);
      let iw = 0;
      let fw = 0;
      for (const v of values) {
        if (kind === 'number') {
          const [a, b] = splitNumber(v);
          iw = Math.max(iw, a.length);
          fw = Math.max(fw, b.length);
        } else w = Math.max(w, textWidth(v));
      }
      if (kind === 'number') {
        w = Math.max(w, iw + fw);
        iw = w - fw;
      }
      this.widths.push(w);
      this.intW.push(iw);
      this.fracW.push(fw);
    }
    if (!opts.wide && Number.isFinite(opts.width)) this.fit(opts.width);
  }

  /** Narrows ids, then free text, until the row fits (dates and numbers keep their width). */
  private fit(width: number): void {
    const avail = width - GAP.length * (this.widths.length - 1);
    const total = () => this.widths.reduce((a, b) => a + b, 0);
    let over = total() - avail;
    if (over <= 0) return;
    const minFor = (i: number) => {
      const h = textWidth(this.head[i]!);
      if (this.kinds[i] === 'id') return this.opts.tty ? Math.max(ID_MIN, h) : this.widths[i]!;
      if (this.kinds[i] === 'text' && !this.keep[i]) return Math.max(Math.min(TEXT_MIN, this.widths[i]!), h);
      return this.widths[i]!;
    };
    // ids first, down to 6…6
    for (let i = 0; i < this.widths.length && over > 0; i++) {
      if (this.kinds[i] !== 'id') continue;
      const cut = Math.min(over, this.widths[i]! - minFor(i));
      if (cut > 0) {
        this.widths[i]! -= cut;
        over -= cut;
      }
    }
    // then free text (prose before single words, the first column, which names the row, last),
    // the widest column of a rank first, down to its minimum
    for (const rank of [0, 1, 2]) {
      const inRank = (i: number) =>
        this.kinds[i] === 'text' && (i === 0 ? 2 : this.prose[i] ? 0 : 1) === rank && this.widths[i]! > minFor(i);
      while (over > 0) {
        let best = -1;
        for (let i = 0; i < this.widths.length; i++) {
          if (!inRank(i)) continue;
          if (best < 0 || this.widths[i]! > this.widths[best]!) best = i;
        }
        if (best < 0) break;
        let second = 0;
        for (let i = 0; i < this.widths.length; i++)
          if (i !== best && inRank(i)) second = Math.max(second, this.widths[i]!);
        const cut = Math.max(1, Math.min(over, this.widths[best]! - Math.max(second, minFor(best))));
        this.widths[best]! -= cut;
        over -= cut;
      }
    }
    // still too wide: ids down to 4…4 and prose down to 5, evenly, before the table overflows
    const last = (i: number) =>
      this.kinds[i] === 'id' && this.opts.tty
        ? Math.max(9, textWidth(this.head[i]!))
        : this.kinds[i] === 'text' && this.prose[i]
          ? Math.min(this.widths[i]!, Math.max(5, textWidth(this.head[i]!)))
          : this.widths[i]!;
    for (let progress = true; over > 0 && progress;) {
      progress = false;
      for (let i = this.widths.length - 1; i >= 0 && over > 0; i--) {
        if (this.widths[i]! > last(i)) {
          this.widths[i]! -= 1;
          over -= 1;
          progress = true;
        }
      }
    }
  }

  private fitCell(i: number, v: string): string {
    const w = this.widths[i]!;
    const kind = this.kinds[i]!;
    if (kind === 'number' && NUMBER.test(v)) {
      const [a, b] = splitNumber(v);
      const iw = this.intW[i]!;
      const fw = this.fracW[i]!;
      if (a.length <= iw && b.length <= fw) return ' '.repeat(iw - a.length) + a + b + ' '.repeat(fw - b.length);
      // wider than the first rows: right-aligned as a whole
      return v.length >= w ? v : ' '.repeat(w - v.length) + v;
    }
    const limited = !this.opts.wide && Number.isFinite(this.opts.width);
    let text = v;
    if (limited) {
      if (kind === 'id' && this.opts.tty && v.length > w && ID.test(v)) text = truncateMiddle(v, w);
      else text = truncateEnd(v, w);
    }
    const tw = textWidth(text);
    return tw >= w ? text : text + ' '.repeat(w - tw);
  }

  private line(cells: string[]): string {
    let out = '';
    const n = this.widths.length;
    for (let i = 0; i < n; i++) {
      const c = this.fitCell(i, oneLine(cells[i] ?? ''));
      out += i === 0 ? c : GAP + c;
    }
    return `${out.trimEnd()}\n`;
  }

  private header(): string {
    const style = this.opts.headStyle ?? ((s: string) => s);
    const n = this.widths.length;
    const cells: string[] = [];
    for (let i = 0; i < n; i++) {
      const h = truncateEnd(this.head[i]!, this.widths[i]!);
      const pad = ' '.repeat(Math.max(0, this.widths[i]! - textWidth(h)));
      const cell = this.kinds[i] === 'number' ? pad + h : i === n - 1 ? h : h + pad;
      cells.push(style(cell));
    }
    return `${cells.join(GAP).trimEnd()}\n`;
  }

  /** The text for these rows (the header before the first ones). */
  rows(rows: string[][]): string {
    let out = '';
    if (!this.started) {
      this.started = true;
      out += this.header();
    }
    for (const r of rows) out += this.line(r);
    return out;
  }

  end(): string {
    return this.started ? '' : this.rows([]);
  }
}

/** A single object as key/value lines: the keys padded, each value on its line (cut to the width). */
export function verticalTable(entries: Array<[string, string]>, opts: TableOptions): string {
  let kw = 0;
  for (const [k] of entries) kw = Math.max(kw, textWidth(oneLine(k)));
  const style = opts.headStyle ?? ((s: string) => s);
  const room = opts.wide || !Number.isFinite(opts.width) ? Infinity : Math.max(TEXT_MIN, opts.width - kw - 2);
  let out = '';
  for (const [k, v] of entries) {
    const key = oneLine(k);
    const value = oneLine(v);
    const shown = Number.isFinite(room)
      ? opts.tty && ID.test(value)
        ? truncateMiddle(value, room)
        : truncateEnd(value, room)
      : value;
    out += `${style(key)}${' '.repeat(kw - textWidth(key))}  ${shown}`.trimEnd() + '\n';
  }
  return out;
}
