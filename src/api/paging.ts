// Paging by nextPageToken, the next page requested while the current one is used, for every paged read.
// A walk that is sent back to a page it already had (a nextPageToken seen before in this walk: the
// same one twice in a row, or A -> B -> A) would repeat its pages without end: it stops with a
// ServerError (exit 7), the service's fault.
import { createHash } from 'node:crypto';
import { ExactNumber } from '../contract/exact-json.js';
import { ServerError } from '../errors.js';
import { preview } from './client.js';
import { kindOf as valueKind } from './shape.js';

/** Tokens up to this long are remembered as they are; longer ones by their SHA-256 (no false match). */
const KEPT_AS_IS = 64;
/**
 * Tokens remembered one by one (about 100 bytes each): a walk of this many pages holds 100 million
 * transactions at 100 a page. Past it the walk keeps one checkpoint token (Brent's cycle finding),
 * so memory stays bounded and a cycle of any length is still found, a few laps later.
 */
const MAX_REMEMBERED = 250_000;

/** The nextPageTokens of one walk, to tell a token the walk was given before. */
export class SeenTokens {
  private readonly seen = new Set<string>();
  private checkpoint: string | undefined;
  private lap = 1;
  private steps = 0;

  /** Records `token`; true when this walk had it before. */
  repeated(token: string): boolean {
    // a digest is longer than any token kept as is, so the two never meet
    const key = token.length <= KEPT_AS_IS ? token : `#${createHash('sha256').update(token, 'utf8').digest('base64')}`;
    if (this.seen.has(key)) return true;
    if (this.seen.size < MAX_REMEMBERED) {
      this.seen.add(key);
      return false;
    }
    if (key === this.checkpoint) return true;
    if (++this.steps >= this.lap) {
      this.checkpoint = key;
      this.lap *= 2;
      this.steps = 0;
    }
    return false;
  }
}

/** The error for a nextPageToken the walk was given before, after `pages` pages of `what`. */
export function repeatedTokenError(token: string, pages: number, what = 'the service'): ServerError {
  return new ServerError(
    `${what} sent nextPageToken "${preview(token, 40)}" again after ${pages} page${pages === 1 ? '' : 's'}: ` +
      'it points back to a page already read, so the pages would repeat without end; stopped',
    {
      hint: 'the service answered something that is not what the endpoint returns; what was printed is incomplete',
    },
  );
}

/**
 * Empty pages in a row, each with a new nextPageToken, after which a walk stops. A service may answer
 * an empty page and a token now and then (the sandbox does for a filter that matched nothing in the
 * 20,000 transactions one request looks at), but not without end: new tokens are never "seen before",
 * so this is the only end of such a walk.
 */
export const MAX_EMPTY_PAGES = 1000;

/** Counts a walk's empty pages in a row; stops it (exit 7) at MAX_EMPTY_PAGES. */
export class EmptyPages {
  private run = 0;
  private pages = 0;
  constructor(
    private readonly what = 'the service',
    private readonly limit = MAX_EMPTY_PAGES,
  ) {}

  /** After a page of `count` items whose nextPageToken is `next` ("" on the last page). */
  note(count: number, next: string): void {
    this.pages++;
    if (count > 0 || next === '') {
      this.run = 0;
      return;
    }
    if (++this.run < this.limit) return;
    throw new ServerError(
      `${this.what} answered ${this.run} empty pages in a row, each with a new nextPageToken (after ${this.pages} pages in all): the walk would not end; stopped`,
      {
        hint: 'the service answered something that is not what the endpoint returns; what was printed is incomplete',
      },
    );
  }
}

/**
 * What is wrong with a page's nextPageToken member (`value`, undefined when missing), or undefined
 * when it is fine: a string ("" on the last page). Null or another type never is; a missing one
 * only when a single page is read (`all` false): following pages needs to know whether there are more.
 */
export function nextPageTokenProblem(value: unknown, all: boolean): string | undefined {
  if (typeof value === 'string') return undefined;
  if (value === undefined)
    return all
      ? 'no nextPageToken (the last page has "nextPageToken": ""): whether more pages follow is unknown'
      : undefined;
  return `a nextPageToken that is ${kindOf(value)}, not a string`;
}

/** shape.ts's words for a JSON value, a number shown with its digits. */
function kindOf(v: unknown): string {
  return v instanceof ExactNumber || typeof v === 'number' ? `the number ${preview(String(v), 24)}` : valueKind(v);
}

/**
 * Every page from the first (or from `startToken`) to the last, or only the first when !all.
 * `what` names the endpoint in the error for a repeated token ("GET /data/v2/transactions");
 * `size` counts a page's items, for the end of a walk of empty pages (EmptyPages).
 */
export async function* prefetchPages<P extends { nextPageToken: string }>(
  read: (token: string | undefined) => Promise<P>,
  o: { all: boolean; startToken?: string; what?: string; size?: (page: P) => number; maxEmpty?: number },
): AsyncGenerator<P> {
  const seen = new SeenTokens();
  const empty = new EmptyPages(o.what, o.maxEmpty);
  if (o.startToken) seen.repeated(o.startToken);
  let pending: Promise<P> | undefined = read(o.startToken);
  let pages = 0;
  while (pending) {
    const page: P = await pending;
    pending = undefined;
    pages++;
    const next = page.nextPageToken;
    if (o.all && next) {
      if (seen.repeated(next)) throw repeatedTokenError(next, pages, o.what);
      if (o.size) empty.note(o.size(page), next);
      pending = read(next);
      // a failure of the prefetch surfaces when it is awaited, not as an unhandled rejection
      pending.catch(() => undefined);
    }
    yield page;
  }
}
