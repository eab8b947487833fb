// The top-level members of one JSON object's text, by offsets: what the send pass cuts out of a
// line the fast path declined, so each member goes on the wire exactly as written.
import {
  BACKSLASH,
  COLON,
  COMMA,
  CR,
  LEFT_BRACE,
  LEFT_BRACKET,
  LF,
  QUOTE,
  RIGHT_BRACE,
  RIGHT_BRACKET,
  SPACE,
  TAB,
} from './bytes.js';

export interface Member {
  key: string;
  /** Offsets: the key's opening quote, the value's first character, just after the value. */
  start: number;
  vStart: number;
  end: number;
}

const isWs = (c: number) => c === SPACE || c === TAB || c === LF || c === CR;

/** A cursor over s: each method moves i past what it reads and says whether it was well-formed. */
class Cursor {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && isWs(this.s.charCodeAt(this.i))) this.i++;
  }

  at(c: number): boolean {
    return this.s.charCodeAt(this.i) === c;
  }

  str(): boolean {
    const s = this.s;
    this.i++;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === BACKSLASH) this.i += 2;
      else if (c === QUOTE) {
        this.i++;
        return true;
      } else this.i++;
    }
    return false;
  }

  /** An object or array: brackets counted, strings skipped (no recursion, so any depth is cheap). */
  nested(): boolean {
    const s = this.s;
    let depth = 0;
    while (this.i < s.length) {
      const d = s.charCodeAt(this.i);
      if (d === QUOTE) {
        if (!this.str()) return false;
        continue;
      }
      if (d === LEFT_BRACE || d === LEFT_BRACKET) depth++;
      else if (d === RIGHT_BRACE || d === RIGHT_BRACKET) {
        depth--;
        if (depth === 0) {
          this.i++;
          return true;
        }
      }
      this.i++;
    }
    return false;
  }

  scalar(): boolean {
    const s = this.s;
    const start = this.i;
    while (this.i < s.length) {
      const d = s.charCodeAt(this.i);
      if (d === COMMA || d === RIGHT_BRACE || d === RIGHT_BRACKET || isWs(d)) break;
      this.i++;
    }
    return this.i > start;
  }

  value(): boolean {
    const c = this.s.charCodeAt(this.i);
    if (c === QUOTE) return this.str();
    if (c === LEFT_BRACE || c === LEFT_BRACKET) return this.nested();
    return this.scalar();
  }

  member(): Member | undefined {
    const s = this.s;
    this.ws();
    if (!this.at(QUOTE)) return undefined;
    const start = this.i;
    if (!this.str()) return undefined;
    const rawKey = s.slice(start + 1, this.i - 1);
    const key = rawKey.indexOf('\\') < 0 ? rawKey : (JSON.parse(s.slice(start, this.i)) as string);
    this.ws();
    if (!this.at(COLON)) return undefined;
    this.i++;
    this.ws();
    const vStart = this.i;
    if (!this.value()) return undefined;
    return { key, start, vStart, end: this.i };
  }
}

/** The top-level members of a JSON object's text, by offsets (a char scan, no allocation per value). */
export function topLevelMembers(s: string): Member[] | undefined {
  const c = new Cursor(s);
  c.ws();
  if (!c.at(LEFT_BRACE)) return undefined;
  c.i++;
  const out: Member[] = [];
  c.ws();
  if (c.at(RIGHT_BRACE)) return out;
  for (;;) {
    const m = c.member();
    if (!m) return undefined;
    out.push(m);
    c.ws();
    const next = s.charCodeAt(c.i++);
    if (next === COMMA) continue;
    if (next === RIGHT_BRACE) return out;
    return undefined;
  }
}

/** A member's value as a string when it is one (escapes decoded), else undefined. */
export function stringMember(text: string, m: Member): string | undefined {
  const raw = text.slice(m.vStart, m.end);
  if (raw.charCodeAt(0) !== QUOTE) return undefined;
  return raw.indexOf('\\') < 0 ? raw.slice(1, -1) : (JSON.parse(raw) as string);
}
