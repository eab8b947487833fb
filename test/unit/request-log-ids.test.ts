// The sandbox's own X-Request-IDs (src/sandbox/bench/request-log.ts): a random prefix per sandbox
// and a counter of twelve hex digits, built from a cached head per block of 4096 and a table of
// three-digit tails. Across block boundaries they stay the UUID-shaped, increasing, unique ids the
// counter gives; a sensible id of the client's own is answered as it came.
import { expect, test } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestLog } from '../../src/sandbox/bench/request-log.js';
import { SandboxClock } from '../../src/sandbox/store.js';
import { answering } from '../../src/sandbox/http.js';
import type { Store } from '../../src/sandbox/store.js';

const store = { clock: new SandboxClock(), tokens: new Map() } as unknown as Store;

/** The id send() answers this request's response with. */
function idOf(log: RequestLog, headers: Record<string, string> = {}): string {
  const res = {} as ServerResponse;
  log.begin({ headers } as unknown as IncomingMessage, res);
  expect(answering.res).toBe(res);
  return answering.id;
}

test('sandbox-made request ids count up in hex across block boundaries, unique and UUID-shaped', () => {
  const log = new RequestLog(store, 16);
  const ids = Array.from({ length: 3 * 4096 + 5 }, () => idOf(log));
  const prefix = ids[0]!.slice(0, 23);
  for (const [i, id] of ids.entries()) {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(id.slice(0, 24)).toBe(`${prefix}-`);
    expect(parseInt(id.slice(24), 16)).toBe(i + 1);
  }
  expect(ids[4094]).toBe(`${prefix}-000000000fff`);
  expect(ids[4095]).toBe(`${prefix}-000000001000`);
  expect(new Set(ids).size).toBe(ids.length);
  // another sandbox's ids have another prefix
  expect(idOf(new RequestLog(store, 16)).slice(0, 23)).not.toBe(prefix);
});

test("a client's own sensible X-Request-ID is answered as it came, and does not use up a counter", () => {
  const log = new RequestLog(store, 16);
  const first = idOf(log);
  expect(idOf(log, { 'x-request-id': 'trace-7' })).toBe('trace-7');
  expect(idOf(log, { 'x-request-id': 'bad id with spaces' })).toMatch(/-000000000002$/);
  expect(first).toMatch(/-000000000001$/);
});
