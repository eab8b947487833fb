// Paging by nextPageToken, the next page requested while the current one is used, for every paged read.
import { UsageError } from '../errors.js';

/** Every page from the first (or from `startToken`) to the last, or only the first when !all. */
export async function* prefetchPages<P extends { nextPageToken: string }>(
  read: (token: string | undefined) => Promise<P>,
  o: { all: boolean; startToken?: string },
): AsyncGenerator<P> {
  let pending: Promise<P> | undefined = read(o.startToken);
  let previous = o.startToken ?? '';
  while (pending) {
    const page: P = await pending;
    pending = undefined;
    const next = page.nextPageToken;
    if (o.all && next) {
      if (next === previous)
        throw new UsageError('the service returned the same nextPageToken twice; stopping to avoid a loop');
      previous = next;
      pending = read(next);
      // a failure of the prefetch surfaces when it is awaited, not as an unhandled rejection
      pending.catch(() => undefined);
    }
    yield page;
  }
}
