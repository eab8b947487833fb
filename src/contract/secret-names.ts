// Which names hold a secret: the one rule for JSON keys, form and query fields and command
// arguments, on both sides (the CLI's traces, errors and `api --dry-run`; the sandbox's request log).
//
// A name is read as words (camelCase, snake_case, kebab-case, dots; digits split words, so `code1`
// is `code`; a plural is read as its singular). It names a secret when
// - a word is one that only ever names a secret (password, secret...) and the name does not end in a
//   word that describes it (`client_secret_expires_at`, `passwordPolicy`);
// - (a last word that only says how it is held is passed over: `tokenValue`, `authorizationHeader`)
// - its last word is a credential noun (token, pin, otp, assertion, authorization...); a page token is
//   none (`nextPageToken`: the service hands it out to be sent back);
// - its last word is `code` alone or after a word that makes it a credential (`code`, `authorization_code`,
//   `pinCode`, `otp_code`, `smsCode`), never a classification (`currencyCode`, `countryCode`,
//   `merchantCategoryCode`, `providerCode`, `postalCode`, `statusCode`);
// - its last word is `key` after one that makes it a credential (`private_key`, `apiKey`), never
//   `publicKey` or `idempotencyKey`;
// - it is one of the fields whose whole value is a secret: `information` (the answers to supplemental
//   fields: OTPs, PINs) and `retire` (the connector token being retired).

/** Words that only ever name a secret, wherever they stand in the name. */
const ALWAYS = new Set(['secret', 'password', 'passwd', 'pwd', 'passphrase', 'passcode', 'apikey', 'privatekey']);
/** Last words that say something about a secret rather than hold it. */
const ABOUT = new Set([
  'at',
  'in',
  'expires',
  'expiry',
  'expiration',
  'length',
  'type',
  'policy',
  'hint',
  'required',
  'set',
  'changed',
  'updated',
  'id',
  'name',
  'count',
  'enabled',
]);
/** Last words that name a credential. */
const CREDENTIAL = new Set(['token', 'pin', 'otp', 'totp', 'assertion', 'authorization', 'verifier', 'cookie']);
/** Words before `code` that make it a credential. */
const CODE_OF = new Set([
  'authorization',
  'auth',
  'oauth',
  'pin',
  'otp',
  'totp',
  'sms',
  'mfa',
  'verification',
  'security',
  'access',
  'activation',
  'recovery',
  'backup',
  'login',
  'pass',
  'time',
  'onetime',
  'device',
  'secret',
]);
/** Words before `key` that make it a credential. */
const KEY_OF = new Set(['private', 'api', 'secret', 'signing', 'access', 'client', 'encryption', 'master', 'session']);
/** Last words that say the word before is what the field holds: `tokenValue`, `authorizationHeader`, `pinNumber`. */
const HOLDER = new Set(['value', 'header', 'string', 'text', 'raw', 'data', 'hash', 'number']);
/** Whole names whose value is a secret. */
const WHOLE = new Set(['information', 'retire']);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Names seen, with the answer: a body of a million transactions repeats the same few keys. */
const seen = new Map<string, boolean>();

/** Whether a field, key or argument of this name holds a secret. */
export function isSecretName(name: string): boolean {
  let answer = seen.get(name);
  if (answer === undefined) {
    answer = decide(name);
    // a body's keys are few; keys made of data (a map by id) would grow it without end
    if (seen.size >= 4096) seen.clear();
    seen.set(name, answer);
  }
  return answer;
}

function decide(name: string): boolean {
  // a plural is the same name: `tokens`, `passwords`, `recoveryCodes`, `private_keys`
  const w = words(name).map((x) => (x.length > 3 && /[^s]s$/.test(x) ? x.slice(0, -1) : x));
  if (w.length > 1 && HOLDER.has(w[w.length - 1]!)) w.pop();
  const last = w[w.length - 1];
  if (last === undefined) return false;
  const before = w[w.length - 2];
  if (w.length === 1 && WHOLE.has(last)) return true;
  if (w.some((x) => ALWAYS.has(x)) && !(w.length > 1 && ABOUT.has(last))) return true;
  if (CREDENTIAL.has(last)) return !(last === 'token' && w.includes('page'));
  if (last === 'code') return before === undefined || CODE_OF.has(before);
  if (last === 'key') return before !== undefined && KEY_OF.has(before);
  return false;
}

/** Keys whose `code` names a classification, not a credential: a budget's `filter.categories[].code`. */
const CLASSIFIED_BY_CODE = new Set(['category', 'categories']);

/**
 * Whether a JSON key holds a secret, knowing the key it stands under (through arrays): a bare
 * `code` is an OAuth grant, but under `categories` it is a category code (`expenses:food`), which a
 * budget's 400 names back and must show.
 */
export function isSecretKey(name: string, parent: string | undefined): boolean {
  if (!isSecretName(name)) return false;
  return !(parent !== undefined && name.toLowerCase() === 'code' && CLASSIFIED_BY_CODE.has(parent.toLowerCase()));
}

const alt = (xs: Iterable<string>): string => [...xs].join('|');
/** The end of a JSON key: a plural's s, digits (`code_1`), a holder word, the closing quote and the colon. */
const KEY_END = `s?[^a-z"]*(?:(?:${alt(HOLDER)})s?[^a-z"]*)?"\\s*:`;
/** What every secret name isSecretName accepts holds somewhere in a JSON text, and ordinary keys rarely. */
const MAY_NAME_SECRET = new RegExp(
  [
    `passw|${alt(ALWAYS)}`,
    `(?:${alt(CREDENTIAL)})${KEY_END}`,
    `"code${KEY_END}`,
    `(?:${alt(CODE_OF)})[^a-z"]*code${KEY_END}`,
    `(?:${alt(KEY_OF)})[^a-z"]*key${KEY_END}`,
    `"(?:${alt(WHOLE)})"\\s*:`,
  ].join('|'),
  'i',
);

/**
 * Whether a JSON text may hold a secret-named key at all (a large body without one, such as a push
 * of transactions with their currencyCode and merchantCategoryCode, is not parsed to look for one).
 */
export function mayNameSecret(json: string): boolean {
  return MAY_NAME_SECRET.test(json);
}
