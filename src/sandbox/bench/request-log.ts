// The request log (`bankctl sandbox logs`): every request the sandbox served, in a ring buffer. The
// cost per request is one small object and one slot write, no I/O; with `sandbox start --bodies`
// the bodies are captured too (at most BODY_MAX bytes each) and redacted when read.
// Every response carries an X-Request-ID: the client's own when it sent a sensible one.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Store } from '../store.js';
import { redactBody } from './redact.js';

/** An entry as kept: the scopes are the token's own set, copied only when read. */
type Kept = Omit<LogEntry, 'scopes'> & { scopes?: ReadonlySet<string> };

export interface LogEntry {
  seq: number;
  /** Sandbox clock, epoch ms. */
  time: number;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  /** client, user, connector, basic, none, or invalid (a token the sandbox does not know). */
  tokenKind: string;
  scopes: string[];
  userId?: string;
  clientId?: string;
  requestId: string;
  requestBody?: string;
  responseBody?: string;
}

/** What begin() hands to end(): one object per request. */
export interface Pending {
  t0: number;
  time: number;
  requestId: string;
  kind: string;
  scopes?: ReadonlySet<string>;
  userId?: string;
  clientId?: string;
  reqBody?: Buffer[];
  resBody?: Buffer[];
}

const BODY_MAX = 64 * 1024;
const REQUEST_ID = /^[\w.:@/+=-]{1,200}$/;

export class RequestLog {
  private readonly ring: Array<Kept | undefined>;
  private seq = 0;
  /** Request ids: a random prefix per sandbox and a counter (cheaper than a UUID per request). */
  private readonly idPrefix = randomUUID().slice(0, 23);
  private idCounter = 0;

  constructor(
    private readonly store: Store,
    readonly capacity = 10_000,
    private readonly bodies = false,
  ) {
    this.ring = new Array<Kept | undefined>(capacity);
  }

  /** At the start of a request: sets X-Request-ID and notes who is calling. */
  begin(req: IncomingMessage, res: ServerResponse): Pending {
    const given = req.headers['x-request-id'];
    const requestId =
      typeof given === 'string' && REQUEST_ID.test(given)
        ? given
        : `${this.idPrefix}-${(++this.idCounter).toString(16).padStart(12, '0')}`;
    res.setHeader('x-request-id', requestId);
    const p: Pending = { t0: performance.now(), time: this.store.clock.now(), requestId, kind: 'none' };
    const auth = req.headers.authorization;
    if (auth) this.who(auth, p);
    if (this.bodies) capture(req, res, p);
    return p;
  }

  /** After the response was handed over: the entry, unless it is a read of the log itself. */
  end(req: IncomingMessage, res: ServerResponse, p: Pending): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path === '/sandbox/logs') return;
    const entry: Kept = {
      seq: ++this.seq,
      time: p.time,
      method: req.method ?? 'GET',
      path: path.length > 2000 ? `${path.slice(0, 2000)}…` : path,
      status: res.statusCode,
      latencyMs: Math.round((performance.now() - p.t0) * 10) / 10,
      tokenKind: p.kind,
      scopes: p.scopes,
      requestId: p.requestId,
    };
    if (p.userId) entry.userId = p.userId;
    if (p.clientId) entry.clientId = p.clientId;
    if (p.reqBody)
      entry.requestBody = redactBody(Buffer.concat(p.reqBody).toString('utf8'), req.headers['content-type']);
    if (p.resBody) {
      const type = res.getHeader('content-type');
      entry.responseBody = redactBody(Buffer.concat(p.resBody).toString('utf8'), typeof type === 'string' ? type : '');
    }
    this.ring[(entry.seq - 1) % this.capacity] = entry;
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

  /** The entries after `after` (a seq), oldest first; `dropped` counts the ones the ring overwrote. */
  entries(after = 0): { entries: LogEntry[]; last: number; dropped: number } {
    const first = Math.max(after + 1, this.seq - this.capacity + 1, 1);
    const out: LogEntry[] = [];
    for (let s = first; s <= this.seq; s++) {
      const e = this.ring[(s - 1) % this.capacity]!;
      out.push({ ...e, scopes: e.scopes ? [...e.scopes] : [] });
    }
    return { entries: out, last: this.seq, dropped: Math.max(0, first - after - 1) };
  }

  clear(): void {
    this.ring.fill(undefined);
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
