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

/** Keeps the young generation at its starting size for the rest of the process (see above). */
export function streamingHeap(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
