// The local receiver behind `webhooks listen`. Every byte from the network is hostile: POST only,
// a body limit (413), a deadline for slow senders (408), strict UTF-8 JSON (400), and then:
// - Events v2 (an X-Tink-Signature header, or a {context, content, event} body): the signature
//   checked over the raw bytes before anything is parsed, in constant time, with the timestamp
//   within the tolerance; a bad or missing one is 412, as the vendor's guide says a receiver answers;
// - v1 (a WebHookRequest {event, content, webhook}, `webHook` in spec 6): the secret in
//   webhook.secret compared in constant time (401).
// A rejected body is never echoed or printed. Any request, good or bad, leaves the server running.
import { secretsEqual } from '../../contract/secrets.js';
import { ExactNumber, readJson } from '../../contract/exact-json.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { V1_HOOK_KEYS, v1HookOf, type WebHookRequest } from '../../api/webhooks.js';
import { hostGuard } from '../../contract/host.js';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifySignature } from '../../contract/webhook-signature.js';

/** What a receiver accepts: a v1 WebHookRequest or an Events v2 delivery {context, content, event}. */
export interface ReceivedEvent {
  event: string;
  content: unknown;
  webhook?: WebHookRequest['webhook'];
  webHook?: WebHookRequest['webHook'];
  context?: { userId?: string; externalUserId?: string };
  [k: string]: unknown;
}

export interface ReceiverOptions {
  host: string;
  port: number;
  secret: string;
  maxBodyBytes: number;
  /** From the first byte of a request to its last, ms. */
  readTimeoutMs: number;
  /** How far an Events v2 signature's timestamp may be from now, seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, ms (tests move it). */
  now?: () => number;
  /**
   * A valid, authenticated event, with its X-Tink-Signature header when it came with one (a
   * forward passes it on: the target verifies an Events v2 body by it). Resolves when handled
   * (the sender is answered after).
   */
  onEvent(event: ReceivedEvent, raw: Buffer, signature?: string): void | Promise<void>;
  /** A refused request: status and a fixed reason, never the body. */
  onRefused(status: number, reason: string, req: { method: string; path: string }): void;
}

export const DEFAULT_MAX_BODY = 1024 * 1024;

/** Constant time whatever the lengths (src/secrets.ts). */
export const secretMatches = secretsEqual;

class Refusal {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly close = false,
  ) {}
}

function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new Refusal(400, 'the body is not UTF-8');
  }
  let body: unknown;
  try {
    // the exact reader: a number a double cannot give back (12345678901234567891, 1.10, 1e400) keeps
    // its digits as an ExactNumber, so the printed event says what the sender sent
    body = readJson(text);
  } catch {
    // the parser's message quotes the input: not shown
    throw new Refusal(400, 'the body is not JSON');
  }
  if (!isObject(body)) throw new Refusal(400, 'the body is not a JSON object');
  return body;
}

/** A JSON object: not null, an array or a number kept as an ExactNumber (an object too). */
function isObject(v: unknown): v is Record<string, unknown> {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v) && !(v instanceof ExactNumber);
}

function checkShape(b: Record<string, unknown>): void {
  if (typeof b.event !== 'string' || b.event === '' || b.event.length > 200)
    throw new Refusal(400, 'event is missing or not a string');
  if (!b.content || typeof b.content !== 'object' || b.content instanceof ExactNumber)
    throw new Refusal(400, 'content is missing or not an object');
}

/** Parses and checks a WebHookRequest (v1); throws a Refusal with a fixed reason. */
export function parseWebHookRequest(raw: Buffer, secret: string): WebHookRequest {
  const b = parseJsonObject(raw);
  const hook = v1HookOf(b)?.hook;
  if (typeof hook?.secret !== 'string') throw new Refusal(400, 'webhook.secret is missing');
  if (!secretMatches(secret, hook.secret)) throw new Refusal(401, 'wrong secret');
  checkShape(b);
  return b as unknown as WebHookRequest;
}

/** Whether a body without a signature header still looks like an Events v2 delivery. */
function looksV2(raw: Buffer): boolean {
  try {
    const b = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    return Boolean(
      b && typeof b === 'object' && !Array.isArray(b) && 'context' in b && !V1_HOOK_KEYS.some((k) => k in b),
    );
  } catch {
    return false;
  }
}

/**
 * Checks and parses a delivery of either kind. Events v2: the signature over the raw bytes first
 * (412 when missing, malformed, wrong or outside the tolerance), then the shape; v1 as before.
 */
export function parseDelivery(
  raw: Buffer,
  signature: string | string[] | undefined,
  secret: string,
  nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): ReceivedEvent {
  if (signature === undefined && !looksV2(raw)) return parseWebHookRequest(raw, secret) as ReceivedEvent;
  const check = verifySignature(signature, raw, secret, nowMs, toleranceSeconds);
  if (!check.ok)
    throw new Refusal(
      412,
      check.reason === 'missing'
        ? 'the X-Tink-Signature header is missing'
        : check.reason === 'malformed'
          ? 'the X-Tink-Signature header is malformed'
          : check.reason === 'mismatch'
            ? 'the signature does not match'
            : `the signature's timestamp is ${check.reason} (tolerance ${toleranceSeconds} s)`,
    );
  const b = parseJsonObject(raw);
  checkShape(b);
  return b as ReceivedEvent;
}

export class WebhookReceiver {
  private server?: Server;
  private port = 0;

  constructor(private readonly o: ReceiverOptions) {}

  /** The secret to check from now on (an Events v2 registration's, known only once it is made). */
  setSecret(secret: string): void {
    this.o.secret = secret;
  }

  get address(): { host: string; port: number } {
    return { host: this.o.host, port: this.port };
  }

  async start(): Promise<void> {
    const server = createServer(
      {
        // slow headers: checked every half second rather than Node's default 30 s
        headersTimeout: Math.min(this.o.readTimeoutMs, 10_000),
        requestTimeout: 0,
        connectionsCheckingInterval: 500,
        maxHeaderSize: 16 * 1024,
      },
      hostGuard(this.o.host, (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res)),
    );
    server.maxConnections = 256;
    server.keepAliveTimeout = 5_000;
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      const status =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? '431 Request Header Fields Too Large'
            : '400 Bad Request';
      this.o.onRefused(
        Number(status.slice(0, 3)),
        status === '400 Bad Request' ? 'malformed HTTP' : status.slice(4).toLowerCase(),
        { method: '-', path: '-' },
      );
      if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      else socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, this.o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', () => undefined);
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const info = { method: String(req.method ?? '').slice(0, 16), path: String(req.url ?? '').slice(0, 200) };
    try {
      if (req.method !== 'POST') throw new Refusal(405, 'only POST is accepted');
      const raw = await this.readBody(req);
      const now = this.o.now?.() ?? Date.now();
      const signature = req.headers[SIGNATURE_HEADER];
      const event = parseDelivery(raw, signature, this.o.secret, now, this.o.toleranceSeconds);
      await this.o.onEvent(event, raw, Array.isArray(signature) ? signature[0] : signature);
      reply(res, 200, { received: true });
    } catch (err) {
      const r = err instanceof Refusal ? err : new Refusal(500, 'internal error');
      this.o.onRefused(r.status, r.reason, info);
      reply(res, r.status, { error: r.reason }, r.close);
      if (r.close) {
        // let a sender that is still writing read the answer, but not for long
        const socket = req.socket;
        const t = setTimeout(() => socket.destroy(), 500);
        t.unref();
        req.on('end', () => socket.destroySoon());
        req.resume();
      }
    }
  }

  private readBody(req: IncomingMessage): Promise<Buffer> {
    const max = this.o.maxBodyBytes;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max)
      return Promise.reject(new Refusal(413, `the body is larger than ${max} bytes`, true));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (err?: Refusal) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.off('data', onData);
        if (err) reject(err);
        else resolve(Buffer.concat(chunks));
      };
      const timer = setTimeout(
        () => finish(new Refusal(408, 'the request was not received in time', true)),
        this.o.readTimeoutMs,
      );
      const onData = (c: Buffer) => {
        size += c.length;
        if (size > max) finish(new Refusal(413, `the body is larger than ${max} bytes`, true));
        else chunks.push(c);
      };
      req.on('data', onData);
      req.on('end', () => finish());
      req.on('error', () => finish(new Refusal(400, 'the request broke off', true)));
      req.on('close', () => finish(new Refusal(400, 'the request broke off', true)));
    });
  }
}

function reply(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
  };
  if (status === 405) headers.allow = 'POST';
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(payload);
}
