// The bytes the push's scanners compare against, by name: JSON and CSV punctuation, digits, blanks.
export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const PLUS = 0x2b;
export const COMMA = 0x2c;
export const MINUS = 0x2d;
export const DOT = 0x2e;
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;
export const COLON = 0x3a;
export const UPPER_E = 0x45;
export const LEFT_BRACKET = 0x5b;
export const BACKSLASH = 0x5c;
export const RIGHT_BRACKET = 0x5d;
export const LOWER_E = 0x65;
export const LOWER_F = 0x66;
export const LOWER_N = 0x6e;
export const LOWER_T = 0x74;
export const LEFT_BRACE = 0x7b;
export const RIGHT_BRACE = 0x7d;
/** The first printable ASCII byte after the blanks, and the one past the last (DEL). */
export const PRINTABLE_FIRST = 0x20;
export const DEL = 0x7f;
/** The UTF-8 byte order mark. */
export const BOM = [0xef, 0xbb, 0xbf] as const;
/** The byte order mark as a decoded character. */
export const BOM_CHAR = 0xfeff;

export const isDigit = (c: number): boolean => c >= DIGIT_0 && c <= DIGIT_9;
/** A blank inside a line: space, tab, or the CR of a CRLF. */
export const isBlank = (c: number): boolean => c === SPACE || c === TAB || c === CR;
