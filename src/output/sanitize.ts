// Text that came from a bank or the network is stripped of terminal control sequences before it
// reaches a terminal: ANSI CSI/OSC sequences and C0/C1 control characters (tab and newline kept),
// and the bidirectional embeddings, overrides and isolates that reorder what a terminal shows
// (Trojan Source); the plain marks LRM and RLM, which right-to-left text needs, are kept.

// CSI (7-bit and the C1 byte 0x9b, with its parameters), OSC, DCS/SOS/PM/APC strings, and the
// two-byte escapes with their intermediates (ESC c, ESC ( B, ESC 7...), so nothing of them is left
// behind as letters ("cRent", "31mRED")
const ANSI =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, '');
}

/**
 * Everything that starts a new line somewhere: CR, LF, VT, FF, NEL and the Unicode line and
 * paragraph separators (U+2028, U+2029), which some terminals, log viewers and browsers break on;
 * and the tab, which throws the columns after it.
 */
const LINE_BREAK = /[\n\r\t\v\f\x85\u2028\u2029]/;
const LINE_BREAKS = /\r\n|[\n\r\t\v\f\x85\u2028\u2029]/g;

/** Text on one line: every line break (CRLF as one) and tab a space; nothing else touched. */
export function breaksAsSpaces(text: string): string {
  return LINE_BREAK.test(text) ? text.replace(LINE_BREAKS, ' ') : text;
}

/**
 * Network text for one line of a table or a prompt: stripped like stripControl, and every line
 * break a space, so a bank's description or help text cannot draw a line of its own under it (a
 * fake "? Password" prompt, a fake row). -o json keeps the text as it came.
 */
export function singleLine(text: string): string {
  return stripControl(breaksAsSpaces(text));
}

/**
 * A short code from the network (a currency) as is when it has no control text, else escaped like
 * JSON: stripped, "\x1b]0;x\x07SE\u202eK" would show as "SEK" beside an amount, a currency it is not.
 */
export function visibleCode(code: string): string {
  if (stripControl(code) === code) return code;
  return JSON.stringify(code)
    .slice(1, -1)
    .replace(/[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
