// Request and reply helpers for the sandbox. Every byte from the network is hostile: bodies are
// size-limited, content types checked, JSON and forms parsed defensively, and every failure is a
// 4xx with a useful body.
import type { IncomingMessage, ServerResponse } from 'node:http';
// the module's binding, not the global: globalThis.Buffer is a getter, called on every use (twice
// in every send())
import { Buffer } from 'node:buffer';

export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly contentType = 'application/json',
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

/** The error envelope of the authorization endpoints (errorDetails omitted when empty). */
export function envelope(
  status: number,
  errorCode: string,
  errorMessage: string,
  errorDetails?: Record<string, unknown>,
): HttpFailure {
  const body: Record<string, unknown> = { errorMessage, errorCode };
  if (errorDetails && Object.keys(errorDetails).length > 0) body.errorDetails = errorDetails;
  return new HttpFailure(status, body);
}

/** problem+json as the spec shows it on balance refresh. */
export function problem(
  status: number,
  type: string,
  title: string,
  detail?: string,
  invalidParams?: Array<{ name: string; reason: string }>,
  instance?: string,
): HttpFailure {
  const body: Record<string, unknown> = { type, title, status };
  if (detail) body.detail = detail;
  if (instance) body.instance = instance;
  if (invalidParams) body.invalidParams = invalidParams;
  return new HttpFailure(status, body, 'application/problem+json');
}

export function plain(status: number, text: string): HttpFailure {
  return new HttpFailure(status, text, 'text/plain; charset=utf-8');
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  envelope(400, 'request.invalid', message, details);
export const notFound = (message: string) => envelope(404, 'resource.not_found', message);
export const conflict = (message: string) => envelope(409, 'resource.conflict', message);

export interface ReadLimits {
  maxBytes: number;
}

export async function readBody(req: IncomingMessage, limits: ReadLimits): Promise<Buffer> {
  // a compressed body (a client's gzip interceptor on a bulk ingest) read as it is was answered
  // "the body is not valid UTF-8", or a JSON syntax error: RFC 9110 (15.5.16) makes an unsupported
  // content coding a 415 that names it, and the sandbox decodes none (nor does it claim to)
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity' && coding.trim() !== '') {
    req.resume();
    const { body } = envelope(
      415,
      'request.unsupported_content_encoding',
      `Content-Encoding ${coding.slice(0, 40)} is not supported: send the body uncompressed`,
    );
    throw new HttpFailure(415, body, 'application/json', { 'accept-encoding': 'identity' });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    req.resume();
    throw envelope(413, 'request.too_large', `request body larger than ${limits.maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limits.maxBytes) {
      req.resume();
      throw envelope(413, 'request.too_large', `request body larger than ${limits.maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function mediaType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

export function parseJson(buf: Buffer, req: IncomingMessage, opts: { optional?: boolean } = {}): unknown {
  const text = decodeUtf8(buf);
  if (text.trim() === '') {
    if (opts.optional) return undefined;
    throw badRequest('a JSON body is required');
  }
  const type = mediaType(req);
  if (type && !type.endsWith('json')) {
    throw envelope(
      415,
      'request.unsupported_media_type',
      `expected a JSON body (Content-Type: application/json), got ${type.slice(0, 100)}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`malformed JSON body: ${(err as Error).message.slice(0, 200)}`);
  }
}

export function parseForm(buf: Buffer, req: IncomingMessage): URLSearchParams {
  const type = mediaType(req);
  if (type && type !== 'application/x-www-form-urlencoded') {
    throw envelope(
      415,
      'request.unsupported_media_type',
      `expected a form-encoded body (application/x-www-form-urlencoded), got ${type.slice(0, 100)}`,
    );
  }
  return new URLSearchParams(decodeUtf8(buf));
}

function decodeUtf8(buf: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw badRequest('the body is not valid UTF-8');
  }
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
/** A response whose request has an id to answer with (set by the request log). */
export type ResponseWithId = ServerResponse & { requestId?: string };
/**
 * The response being answered synchronously, with its request id (set by the request log's
 * begin). send() takes the id from here when it answers that response: a property added to every
 * ServerResponse made it grow a property store per request. A handler that waits has the id set
 * on its response (requestId) before it resumes.
 */
export const answering: { res: ServerResponse | undefined; id: string } = { res: undefined, id: '' };

/** For a handler that waits: its response keeps its id, which `answering` will not hold by then. */
export function keepRequestId(res: ServerResponse): void {
  if (answering.res === res) (res as ResponseWithId).requestId = answering.id;
}
const JSON_UTF8 = 'application/json; charset=utf-8';

/** A body that is JSON text already (serialised views kept between requests): sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = NO_HEADERS,
): void {
  if (res.headersSent) return;
  let payload: string | Buffer | undefined;
  const json = contentType === 'application/json' || contentType.includes('json');
  if (body === undefined || status === 204) payload = undefined;
  else if (Buffer.isBuffer(body)) payload = body;
  else if (body instanceof JsonText) payload = body.text;
  else if (typeof body === 'string' && !json) payload = body;
  else payload = JSON.stringify(body);
  // the request's X-Request-ID (request-log.ts) rides in the head given here: a header set before
  // writeHead takes Node's slower merging path, a measurable share of a small answer's cost
  const rid = res === answering.res ? answering.id : (res as ResponseWithId).requestId;
  // the service returns a client's X-Client-Trace-ID as it is in every response (the vendor's
  // "Tracing requests"); a partner's client that logs it must find it here too
  const trace = (res.req as IncomingMessage | undefined)?.headers['x-client-trace-id'];
  let type: string | undefined;
  let length = 0;
  if (payload !== undefined) {
    type =
      contentType === 'application/json'
        ? JSON_UTF8
        : json && !contentType.includes('charset')
          ? `${contentType}; charset=utf-8`
          : contentType;
    length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  }
  if (rid !== undefined && type !== undefined && headers === NO_HEADERS && typeof trace !== 'string') {
    // most answers: the head as a flat list, which Node walks without a for-in and a hasOwn check
    // per name, made without the three property additions an object of these names takes
    res.writeHead(status, ['x-request-id', rid, 'content-type', type, 'content-length', length]);
  } else {
    const h: Record<string, string | number> = rid === undefined ? {} : { 'x-request-id': rid };
    if (headers !== NO_HEADERS) Object.assign(h, headers);
    if (typeof trace === 'string') h['x-client-trace-id'] = trace;
    if (type !== undefined) {
      h['content-type'] = type;
      h['content-length'] = length;
    }
    res.writeHead(status, h);
  }
  const slowMs = (res as ServerResponse & { slowBodyMs?: number }).slowBodyMs;
  if (slowMs && payload !== undefined && payload.length > 1) {
    // an injected slow body: the payload trickles out in four parts
    const buf = Buffer.from(payload);
    const part = Math.ceil(buf.length / 4);
    let i = 0;
    const tick = () => {
      if (res.destroyed) return;
      const chunk = buf.subarray(i, i + part);
      i += part;
      if (i >= buf.length) res.end(chunk);
      else {
        res.write(chunk);
        setTimeout(tick, slowMs / 4);
      }
    };
    tick();
    return;
  }
  res.end(payload);
}

/** Checks that a JSON value is a plain object. */
export function asObject(v: unknown, what = 'body'): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw badRequest(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

export function optString(o: Record<string, unknown>, key: string, what = key): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`${what} must be a string`);
  return v;
}
