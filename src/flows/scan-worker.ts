// A worker thread of the first pass of an ndjson push: scans one byte range of the file and posts
// the result (flows/scan-segment.ts). Built as its own entry, dist/scan-worker.js.
import { parentPort, workerData } from 'node:worker_threads';
import { scanSegment } from './scan-segment.js';

const { file, start, end } = workerData as { file: string; start: number; end: number };
parentPort!.postMessage(await scanSegment(file, { start, end }));
