// A worker thread of the validation pass of an ndjson push: scans one byte range of the file and
// posts the result (push/scan-segment.ts). Built as its own entry, dist/scan-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { scanSegment } from './scan-segment.js';

const { file, start, end, hash } = workerData as { file: string; start: number; end: number; hash?: boolean };
const r = await scanSegment(file, { start, end, hash });
parentPort!.postMessage(
  r,
  (r.ids ?? []).map((run) => run.buffer as ArrayBuffer),
);
