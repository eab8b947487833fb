// Ids and names the user hands over (positional values, --user): a control character is never part
// of one. A carriage return at the end is the usual case: csv lines end in CRLF (RFC 4180), so
// `$(bankctl ... -o csv | tail -1)` keeps it, and the service would answer a confusing 404.
import { UsageError } from './errors.js';

const CONTROL = /[\u0000-\u001f\u007f]/;
const TRAILING_CR = /^[^\u0000-\u001f\u007f]*\r\n?$/;

/** Exit 2 naming `what` when v holds a control character; v itself otherwise. */
export function checkedId(what: string, v: string, secret = false): string {
  if (!CONTROL.test(v)) return v;
  // a secret (`config set connector-token VALUE`) is never shown, not even in part
  const shown = secret ? '(not shown: a secret)' : JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (TRAILING_CR.test(v))
    throw new UsageError(`the ${what} ${shown} ends in a carriage return`, {
      hint: "csv lines end in CRLF (RFC 4180): strip it (tr -d '\\r'), or take values from -o ndjson or --jq",
    });
  throw new UsageError(`the ${what} ${shown} holds a control character`, { hint: `pass the ${what} without it` });
}

/**
 * An id given on the command line (`--user ""`, `get ""`): empty or blanks only is exit 2. Taken as
 * not given, a script's variable that came out empty would act for the profile's user, or list all.
 */
export function givenId(what: string, v: string, flag?: string): string {
  if (v.trim() !== '') return checkedId(what, v);
  throw new UsageError(`the ${what} is empty`, {
    hint: flag
      ? `give ${flag} a value, or leave it out`
      : `pass the ${what} itself (a variable that came out empty gives "")`,
  });
}
