// The request log (`bankctl sandbox logs`): every request the sandbox served, in a ring buffer. The
// cost per request is one small object and one slot write, no I/O; with `sandbox start --bodies`
// the bodies are captured too (at most BODY_MAX bytes each) and redacted when read.
// Every response carries an X-Request-ID: the client's own when it sent a sensible one.
import { randomUUID } from 'node:crypto';
// the module's binding, not the global: globalThis.performance is a getter, called on every use
import { performance } from 'node:perf_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../store.js';
import { redactBody } from './redact.js';
import { answering } from '../http.js';
import type { LogEntry } from '../../contract/wire.js';

export type { LogEntry };

/** What begin() hands to end(): one short-lived object per request. */
export interface Pending {
  t0: number;
  time: number;
  /** The client's own X-Request-ID, or undefined for the sandbox's `<prefix>-<counter>`. */
  given: string | undefined;
  counter: number;
  kind: string;
  scopes?: ReadonlySet<string>;
  userId?: string;
  clientId?: string;
  reqBody?: Buffer[];
  resBody?: Buffer[];
}

const BODY_MAX = 64 * 1024;
const REQUEST_ID = /^[\w.:@/+=-]{1,200}$/;
/** Paths seen lately, each kept once: the ring holds the first copy, and each request's own dies young. */
const PATHS_MAX = 4096;
/** 000 to fff: a request id's last three hex digits. */
const HEX3 = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(3, '0'));

/**
 * The log is a ring of columns, not of objects: an entry object per request lived for 10,000
 * requests, so every one of them was copied out of the young generation and collected later (the
 * sandbox answered /version at 0.8x a bare server's rate). Numbers go in typed arrays; strings are
 * ones that live anyway (the method, the token's user and scopes, a path seen before) or, for a
 * sandbox-made request id, just its counter.
 */
export class RequestLog {
  private seq = 0;
  /** Request ids: a random prefix per sandbox and a counter (cheaper than a UUID per request). */
  private readonly idPrefix = randomUUID().slice(0, 23);
  private idCounter = 0;
  private readonly paths = new Map<string, string>();
  private readonly time: Float64Array;
  private readonly latency: Float32Array;
  private readonly status: Uint16Array;
  private readonly counter: Float64Array;
  private readonly method: Array<string | undefined>;
  private readonly path: Array<string | undefined>;
  private readonly kind: Array<string | undefined>;
  private readonly scopes: Array<ReadonlySet<string> | undefined>;
  private readonly userId: Array<string | undefined>;
  private readonly clientId: Array<string | undefined>;
  /** Only a client's own request id, and only --bodies' bodies: undefined otherwise. */
  private readonly given: Array<string | undefined>;
  private readonly bodyText: Array<[string | undefined, string | undefined] | undefined>;

  constructor(
    private readonly store: Store,
    readonly capacity = 10_000,
    private readonly bodies = false,
  ) {
    this.time = new Float64Array(capacity);
    this.latency = new Float32Array(capacity);
    this.status = new Uint16Array(capacity);
    this.counter = new Float64Array(capacity);
    const column = <T>() => new Array<T | undefined>(capacity).fill(undefined);
    this.method = column();
    this.path = column();
    this.kind = column();
    this.scopes = column();
    this.userId = column();
    this.clientId = column();
    this.given = column();
    this.bodyText = column();
  }

  /** The id's first 33 characters for the current block of 4096 counters, remade when it moves on. */
  private idBlock = -1;
  private idHead = '';

  private idOf(given: string | undefined, counter: number): string {
    if (given !== undefined) return given;
    // one concatenation per request, not a number's toString(16) and a padStart each time
    const block = Math.floor(counter / 4096);
    if (block !== this.idBlock) {
      this.idBlock = block;
      this.idHead = `${this.idPrefix}-${block.toString(16).padStart(9, '0')}`;
    }
    return this.idHead + HEX3[counter % 4096]!;
  }

  /** At the start of a request: sets X-Request-ID and notes who is calling. */
  begin(req: IncomingMessage, res: ServerResponse): Pending {
    const h = req.headers['x-request-id'];
    const given = typeof h === 'string' && REQUEST_ID.test(h) ? h : undefined;
    const counter = given === undefined ? ++this.idCounter : 0;
    // answered in X-Request-ID by send() (http.ts), with the rest of the head
    answering.res = res;
    answering.id = this.idOf(given, counter);
    const p: Pending = { t0: performance.now(), time: this.store.clock.now(), given, counter, kind: 'none' };
    const auth = req.headers.authorization;
    if (auth) this.who(auth, p);
    if (this.bodies) capture(req, res, p);
    return p;
  }

  /** A path as kept: the copy seen before when there is one. */
  private keptPath(url: string): string {
    const q = url.indexOf('?');
    let path = q < 0 ? url : url.slice(0, q);
    if (path.length > 2000) path = `${path.slice(0, 2000)}…`;
    const seen = this.paths.get(path);
    if (seen !== undefined) return seen;
    if (this.paths.size >= PATHS_MAX) this.paths.clear();
    this.paths.set(path, path);
    return path;
  }

  /** After the response was handed over: the entry, unless it is a read of the log itself. */
  end(req: IncomingMessage, res: ServerResponse, p: Pending): void {
    const url = req.url ?? '/';
    if (url.startsWith('/sandbox/logs') && (url.length === 13 || url[13] === '?')) return;
    const i = this.seq++ % this.capacity;
    this.time[i] = p.time;
    this.latency[i] = performance.now() - p.t0;
    this.status[i] = res.statusCode;
    this.counter[i] = p.counter;
    this.method[i] = req.method ?? 'GET';
    this.path[i] = this.keptPath(url);
    this.kind[i] = p.kind;
    this.scopes[i] = p.scopes;
    this.userId[i] = p.userId;
    this.clientId[i] = p.clientId;
    this.given[i] = p.given;
    if (p.reqBody || p.resBody) {
      const type = res.getHeader('content-type');
      this.bodyText[i] = [
        p.reqBody && redactBody(Buffer.concat(p.reqBody).toString('utf8'), req.headers['content-type']),
        p.resBody && redactBody(Buffer.concat(p.resBody).toString('utf8'), typeof type === 'string' ? type : ''),
      ];
    } else this.bodyText[i] = undefined;
  }

  private who(header: string, p: Pending): void {
    const sp = header.indexOf(' ');
    const scheme = (sp > 0 ? header.slice(0, sp) : header).toLowerCase();
    const value = sp > 0 ? header.slice(sp + 1).trim() : '';
    if (scheme === 'bearer') {
      const t = this.store.tokens.get(value);
      if (!t) {
        p.kind = 'invalid';
        return;
      }
      p.kind = t.kind;
      p.scopes = t.scopes;
      p.userId = t.userId;
      p.clientId = t.clientId;
    } else if (scheme === 'token') {
      p.kind = 'connector';
    } else if (scheme === 'basic') {
      p.kind = 'basic';
      const name = Buffer.from(value, 'base64').toString('utf8').split(':')[0] ?? '';
      const u = this.store.userByExternalId(name) ?? this.store.users.get(name);
      if (u) p.userId = u.id;
    } else p.kind = 'invalid';
  }

  /** The entry of a seq still in the ring. */
  private entry(seq: number): LogEntry {
    const i = (seq - 1) % this.capacity;
    const e: LogEntry = {
      seq,
      time: this.time[i]!,
      method: this.method[i]!,
      path: this.path[i]!,
      status: this.status[i]!,
      latencyMs: Math.round(this.latency[i]! * 10) / 10,
      tokenKind: this.kind[i]!,
      scopes: this.scopes[i] ? [...this.scopes[i]!] : [],
      requestId: this.idOf(this.given[i], this.counter[i]!),
    };
    if (this.userId[i]) e.userId = this.userId[i];
    if (this.clientId[i]) e.clientId = this.clientId[i];
    const bodies = this.bodyText[i];
    if (bodies?.[0] !== undefined) e.requestBody = bodies[0];
    if (bodies?.[1] !== undefined) e.responseBody = bodies[1];
    return e;
  }

  /** The entries after `after` (a seq), oldest first; `dropped` counts the ones the ring overwrote. */
  entries(after = 0): { entries: LogEntry[]; last: number; dropped: number } {
    const first = Math.max(after + 1, this.seq - this.capacity + 1, 1);
    const out: LogEntry[] = [];
    for (let s = first; s <= this.seq; s++) out.push(this.entry(s));
    return { entries: out, last: this.seq, dropped: Math.max(0, first - after - 1) };
  }

  clear(): void {
    for (const c of [this.method, this.path, this.kind, this.scopes, this.userId, this.clientId, this.given])
      c.fill(undefined);
    this.bodyText.fill(undefined);
    this.paths.clear();
    this.seq = 0;
  }
}

/** With --bodies: the request's bytes as the parser hands them over, the response's as written. */
function capture(req: IncomingMessage, res: ServerResponse, p: Pending): void {
  const reqBody: Buffer[] = (p.reqBody = []);
  const resBody: Buffer[] = (p.resBody = []);
  let reqSize = 0;
  let resSize = 0;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk && reqSize < BODY_MAX) {
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding);
      reqBody.push(b.subarray(0, BODY_MAX - reqSize));
      reqSize += b.length;
    }
    return push(chunk, encoding);
  };
  const keep = (chunk: unknown) => {
    if (!chunk || typeof chunk === 'function' || resSize >= BODY_MAX) return;
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    resBody.push(b.subarray(0, BODY_MAX - resSize));
    resSize += b.length;
  };
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  res.write = ((...a: unknown[]) => {
    keep(a[0]);
    return write(...a);
  }) as ServerResponse['write'];
  res.end = ((...a: unknown[]) => {
    keep(a[0]);
    return end(...a);
  }) as ServerResponse['end'];
}

/** `*` any characters, `?` one; the rest literal. */
export function globRegex(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}
