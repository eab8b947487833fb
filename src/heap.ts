// The commands that stream a large read (transactions list -o ndjson, connector verify) allocate
// fast and keep little: each page is written or folded, then dropped. V8 still grows its young
// generation (to 16 MB a semi-space, 48 MB with its neighbours) when scavenges run often, and the
// peak RSS of a read then grew with its length: 78 MB at 20,000 transactions and 106 MB at
// 200,000 (bench/paging.mjs). Keeping the young generation at its starting size held the read at
// 64 and 72 MB, no slower, and `connector verify` of 1,000,000 at 91 MB instead of 111 with less
// CPU (bench/push.mjs). The growth factor is read each time V8 would grow, so setting it here, at
// the start of the command, is enough. A table (many rows kept per screen) ran 10 to 20% slower
// this way, so only the streaming commands ask for it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Keeps the young generation at its starting size for the rest of the process (see above). */
export function streamingHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

let youngGc: ((o: { type: 'minor' }) => void) | undefined;

/**
 * Runs one young-generation GC now (about a millisecond), so that young garbage holding large
 * buffers gives its memory back at once. The push calls it once, when its duplicate-check hashes
 * (8 bytes a transaction, 8 MB at a million) are moved into a clone nothing keeps (IdRuns.dispose):
 * otherwise they wait for a GC that a push allocating little runs late, and sit on top of the send's
 * own memory. V8's gc is exposed the way Jest's leak detector does it; where that fails, nothing
 * happens but the memory is freed later.
 */
export function collectYoung(): void {
  try {
    if (!youngGc) {
      setFlagsFromString('--expose-gc');
      youngGc = runInNewContext('gc') as typeof youngGc;
    }
    youngGc?.({ type: 'minor' });
  } catch {
    // not essential: the memory comes back at the next GC all the same
  }
}
