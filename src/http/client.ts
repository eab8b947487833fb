// The thin HTTP core: one keep-alive undici agent, the auth schemes, per-request timeout,
// the retry policy, errors carrying the service's message, and a redacted trace.
import type { Dispatcher } from 'undici';
import { request as undiciRequest } from './undici.js';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ApiError, NetworkError, ServerError, UsageError } from '../errors.js';
import { envelopeCode, serviceMessage } from './error-body.js';
import { stripControl } from '../output/sanitize.js';
import { Redactor } from './redact.js';
import { isSecretKey, isSecretName, mayNameSecret } from '../contract/secret-names.js';
import {
  DEFAULT_RETRY,
  decideRetry,
  IDEMPOTENT_METHODS,
  inProgressConflict,
  mayHaveArrived,
  UNTRUSTED_CERT_CODES,
  type AttemptOutcome,
  type RetryConfig,
  type RetryDecision,
} from './retry.js';
import { PIN_MISMATCH, redactProxy, Transport, type TransportOptions } from './transport.js';

export type Auth =
  | { scheme: 'Bearer'; token: string }
  | { scheme: 'Token'; token: string }
  | { scheme: 'Basic'; username: string; password: string };

export type QueryValue = string | number | boolean | undefined | null | Array<string | number | boolean>;

export interface RequestOptions {
  method: string;
  /** A path under the base URL, or an absolute URL. */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string | undefined>;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  auth?: Auth;
  /** Override the method-based idempotency (POST that is safe to resend). */
  idempotent?: boolean;
  retries?: number;
  timeoutMs?: number;
  responseType?: 'json' | 'text' | 'buffer' | 'stream';
  /** Statuses that are returned instead of thrown. */
  acceptStatus?: number[];
  signal?: AbortSignal;
  /**
   * Called when a 2xx answer has been read whole (not a stream) and no attempt of this request was
   * abandoned (a timeout, an abort, a network failure): nothing holds the body any more, so its
   * buffer may be reused. Never called otherwise.
   */
  onBodyDone?: () => void;
  /** Called as each attempt (the first and every retry) goes out: what a report counts as requests. */
  onAttempt?: () => void;
  /** Called when an attempt ends without an answer (a timeout, a network failure): it may have arrived. */
  onAbandoned?: () => void;
  /** Called with the status of each answered attempt, a retried one (429, 5xx) included. */
  onAnswer?: (status: number) => void;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
  url: string;
  /** The X-Request-ID bankctl sent with the attempt that got this answer. */
  requestId?: string;
  /**
   * The secrets this client has handled, taken out of text: a 2xx body quoted in an error may echo
   * the request's credentials (a login page, a proxy, a server that reflects its request).
   */
  redact?: (text: string) => string;
}

/**
 * The request ids of one exchange as a person quotes them to the vendor's support: the service's
 * X-Request-ID (printable ASCII only, at most 128 characters) and the one bankctl sent, once when
 * they are the same.
 */
export function requestIdText(sent: string | undefined, service: string | string[] | undefined): string {
  const raw = Array.isArray(service) ? service[0] : service;
  const svc = (raw ?? '').replace(/[^\x21-\x7e]/g, '').slice(0, 128);
  if (svc && sent && svc !== sent) return `X-Request-ID ${svc} (sent ${sent})`;
  if (svc) return `X-Request-ID ${svc}`;
  return sent ? `X-Request-ID sent ${sent}` : '';
}

export interface HttpClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  retry?: Partial<RetryConfig>;
  userAgent?: string;
  /** Receives one line per trace event; undefined disables tracing. */
  trace?: (line: string) => void;
  /** Receives notices such as "retrying in 2s". */
  notice?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** A fixed dispatcher (tests); otherwise a Transport is built from `transport`. */
  dispatcher?: Dispatcher;
  transport?: TransportOptions;
  redactor?: Redactor;
  /** The largest 2xx body read (default 64 MiB); a larger one is a ResponseTooLargeError (exit 7). */
  maxResponseBytes?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** An error body is read this far for its message; the rest is dropped unread. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** A body over the size limit: an error before it is read whole, never retried. */
export class ResponseTooLargeError extends ServerError {}

// Not unref()ed: a retry wait is the only thing keeping a command alive between attempts.
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class HttpClient {
  readonly baseUrl: string;
  readonly redactor: Redactor;
  private readonly retry: RetryConfig;
  private readonly timeoutMs: number;
  private readonly transport?: Transport;
  private readonly fixedDispatcher?: Dispatcher;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly redactText: (text: string) => string;

  constructor(private readonly opts: HttpClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.fixedDispatcher = opts.dispatcher;
    if (!opts.dispatcher) this.transport = new Transport(opts.transport);
    this.sleep = opts.sleep ?? defaultSleep;
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
    this.redactor = opts.redactor ?? new Redactor();
    this.redactText = (text) => this.redactor.text(text);
  }

  /** Closes the agent; with force, in-flight requests are aborted (Ctrl-C). */
  async close(force = false): Promise<void> {
    this.closed = true;
    await this.transport?.close(force);
  }

  /** The proxy a request to this URL goes through (redacted for display), if any. */
  proxyFor(url: string): string | undefined {
    const proxy = this.transport?.proxyFor(new URL(url));
    return proxy ? redactProxy(proxy) : undefined;
  }

  /** Set by close(): requests still in flight (a prefetch nobody awaits) end without retries. */
  private closed = false;

  buildUrl(path: string, query?: Record<string, QueryValue>): string {
    const url = /^https?:\/\//i.test(path)
      ? new URL(path)
      : new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.append(k, String(v));
    }
    return url.toString();
  }

  /** Headers and body of a request; every secret it carries is remembered for redaction. */
  private prepare(o: RequestOptions): { headers: Record<string, string>; body: string | Buffer | undefined } {
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json;q=0.9, */*;q=0.8',
      ...o.headers,
    };
    if (this.opts.userAgent) headers['user-agent'] = this.opts.userAgent;
    // a secret header of the caller's (`api -H 'X-Auth-Token: ...'`) is echoed as readily as a field
    for (const [k, v] of Object.entries(o.headers ?? {})) if (isSecretName(k)) this.redactor.add(v);
    let body: string | Buffer | undefined = o.body;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] = 'application/json';
    } else if (o.form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(o.form)) {
        if (v === undefined) continue;
        params.append(k, v);
        if (isSecretName(k)) this.redactor.add(v);
      }
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (o.contentType) headers['content-type'] = o.contentType;
    // a secret in a JSON body (a connector user's token, `api -f password=...`) is echoed as
    // readily as one in a form
    if (o.json !== undefined) rememberJsonSecrets(this.redactor, o.json);
    else if (typeof body === 'string' && /json/i.test(headers['content-type'] ?? '') && mayNameSecret(body))
      rememberJsonSecrets(this.redactor, parseOrUndefined(body));
    if (o.auth) {
      headers.authorization = authHeader(o.auth);
      if (o.auth.scheme === 'Basic') this.redactor.addBasic(o.auth.username, o.auth.password);
      else this.redactor.add(o.auth.token);
    }
    return { headers, body };
  }

  async request<T = unknown>(o: RequestOptions): Promise<HttpResponse<T>> {
    const method = o.method.toUpperCase();
    const url = this.buildUrl(o.path, o.query);
    // a secret in the query (`api GET ... -f access_token=...`) is echoed as readily as in a body
    if (url.includes('?')) rememberQuerySecrets(this.redactor, url);
    const { headers, body } = this.prepare(o);
    const route = this.fixedDispatcher
      ? { dispatcher: this.fixedDispatcher, proxy: undefined }
      : this.transport!.dispatcherFor(new URL(url));
    const via = route.proxy ? ` via proxy ${redactProxy(route.proxy)}` : '';
    const retries = o.retries ?? this.retry.retries;
    const cfg = { ...this.retry, retries };
    const waitBeforeRetry = async (d: RetryDecision, attempt: number) => {
      this.notice(
        `${method} ${this.redactor.url(url)}: ${d.reason}, retrying in ${formatDelay(d.delayMs)} (retry ${attempt + 1} of ${retries})`,
      );
      // Ctrl-C ends the wait at once: a Retry-After of 30 s held an interrupted push for 30 s
      await (o.signal ? untilAborted(o.signal, this.sleep(d.delayMs)) : this.sleep(d.delayMs));
    };
    let lastSentId: string | undefined;
    // an attempt that ended without an answer may still be queued in undici with the body
    let abandoned = false;
    let serverFailed = false;
    const givenId = Object.entries(headers).find(([k]) => k.toLowerCase() === 'x-request-id')?.[1];
    for (let attempt = 0; ; attempt++) {
      o.onAttempt?.();
      const started = this.now();
      // a fresh id per attempt (or the caller's own), so each try can be found in the service's logs
      const sentId = givenId ?? randomUUID();
      if (!givenId) headers['x-request-id'] = sentId;
      let errorCode: string | undefined;
      let failure: unknown;
      // only the exchange is tried: what is done with its answer (a wait, an error built) runs
      // outside, so that a programming error there is not retried as if the network had failed
      let answer: Answer | undefined;
      try {
        const res = await requestUntil(
          url,
          { method: method as Dispatcher.HttpMethod, headers, body, dispatcher: route.dispatcher },
          o.signal,
          o.timeoutMs ?? this.timeoutMs,
        );
        const status = res.statusCode;
        o.onAnswer?.(status);
        const ok = (status >= 200 && status < 300) || (o.acceptStatus ?? []).includes(status);
        // the line is built only when it is traced: redacting the URL re-parses it, on every page
        if (this.opts.trace) {
          const ids = requestIdText(sentId, res.headers['x-request-id']);
          this.traceLine(`${method} ${this.redactor.url(url)}${via} -> ${status} (${this.now() - started} ms) ${ids}`);
        }
        if (ok) {
          const limit = this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
          const data = await readBody(res, o.responseType ?? 'json', limit, () => this.tooLarge(method, url, limit));
          // a stream answer is not read yet: the exchange may still be going on
          if (!abandoned && o.responseType !== 'stream') o.onBodyDone?.();
          return { status, headers: res.headers, data: data as T, url, requestId: sentId, redact: this.redactText };
        }
        const text =
          (await readLimited(res, MAX_ERROR_BODY_BYTES, 'truncate').catch(() => undefined))?.toString() ?? '';
        answer = { status, headers: res.headers, text, ids: requestIdText(sentId, res.headers['x-request-id']) };
      } catch (err) {
        // a body over the limit is not fetched again: a retry would only download it once more
        if (err instanceof ResponseTooLargeError) throw err;
        abandoned = true;
        o.onAbandoned?.();
        if (o.signal?.aborted) throw err;
        failure = err;
        errorCode = networkCode(err);
        this.traceLine(
          `${method} ${this.redactor.url(url)}${via} -> ${errorCode} (${this.now() - started} ms) ${requestIdText(sentId, undefined)}`,
        );
        lastSentId = sentId;
      }
      if (answer) {
        const busyKey = this.inProgressKey(answer, headers);
        const decision = decideRetry(
          { method, idempotent: o.idempotent, attempt, nowMs: this.now(), ...answered(answer, busyKey) },
          cfg,
          this.random,
        );
        if (decision.retry) {
          if (answer.status >= 500 || answer.status === 408) serverFailed = true;
          await waitBeforeRetry(decision, attempt);
          continue;
        }
        if (this.deletedBefore(method, abandoned || serverFailed, answer.status, url))
          return { status: answer.status, headers: answer.headers, data: undefined as T, url, requestId: sentId };
        throw this.answerError(answer, method, url, o.auth, decision.waitMs, busyKey);
      }
      if (this.closed)
        throw new NetworkError(`${method} ${this.redactor.url(url)} abandoned: the command has finished`);
      const decision = decideRetry(
        { method, idempotent: o.idempotent, attempt, errorCode, nowMs: this.now() },
        cfg,
        this.random,
      );
      if (decision.retry) {
        // "connection reset by the server", not undici's UND_ERR_SOCKET
        await waitBeforeRetry(
          { ...decision, reason: this.redactor.text(describeNetworkError(failure, errorCode)) },
          attempt,
        );
        continue;
      }
      throw new NetworkError(
        `${method} ${this.redactor.url(url)}${via} failed: ${this.redactor.text(describeNetworkError(failure, errorCode))} [${requestIdText(lastSentId, undefined)}]`,
        { hint: networkHint(errorCode) ?? unansweredChangeHint(method, o.idempotent, errorCode) },
      );
    }
  }

  /**
   * A DELETE sent again after an attempt that got no answer or a 5xx, now answered 404 or 410: that
   * attempt most likely deleted it (a CI cleanup step must not fail on its own retry). Said on stderr.
   */
  private deletedBefore(method: string, mayHaveDone: boolean, status: number, url: string): boolean {
    if (method !== 'DELETE' || !mayHaveDone || (status !== 404 && status !== 410)) return false;
    this.notice(
      `${method} ${this.redactor.url(url)}: HTTP ${status} on a retry after an attempt that got no answer or a server error; taken as deleted by that attempt`,
    );
    return true;
  }

  /** The error of a service's answer that is not a success (and is not retried). */
  private answerError(
    a: Answer,
    method: string,
    url: string,
    auth: Auth | undefined,
    waitMs?: number,
    busyKey?: string,
  ): ApiError {
    // a server may echo what it was sent: the body is redacted before anything reads it
    const { message, body } = serviceMessage(
      a.status,
      headerValue(a.headers['content-type']),
      this.redactor.text(a.text),
    );
    return new ApiError(a.status, method, this.redactor.url(url), message, body, {
      hint:
        // the key is what gets the first request's answer: a run with a new one would do it twice
        (busyKey !== undefined
          ? `the service was still processing the first request with Idempotency-Key ${busyKey}; send it again later with that same key to get its answer (a new key would make a second one)`
          : undefined) ??
        hintFor(a.status, auth, url, body, message) ??
        waitHint(waitMs, this.now()) ??
        redirectHint(a.status, headerValue(a.headers.location), this.redactor),
      // the service's X-Request-ID is its text too: an echo of the Authorization header is no id
      requestIds: this.redactor.text(a.ids),
      headers: a.headers,
    });
  }

  /**
   * The Idempotency-Key of a request answered 409 "a request with this Idempotency-Key is still
   * being processed"; undefined for any other answer, or a request without a key.
   */
  private inProgressKey(a: Answer, headers: Record<string, string>): string | undefined {
    if (a.status !== 409) return undefined;
    const key = Object.entries(headers).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
    if (key === undefined) return undefined;
    const { message, body } = serviceMessage(a.status, headerValue(a.headers['content-type']), a.text);
    return inProgressConflict(envelopeCode(body), message) ? key : undefined;
  }

  private tooLarge(method: string, url: string, limit: number): ResponseTooLargeError {
    return new ResponseTooLargeError(
      `${method} ${this.redactor.url(url)}: the response is larger than ${formatBytes(limit)}; it was not read`,
      { hint: 'raise --max-response-size (or BANKCTL_MAX_RESPONSE_SIZE) if this is expected' },
    );
  }

  private traceLine(line: string): void {
    this.opts.trace?.(this.redactor.text(line));
  }

  private notice(line: string): void {
    (this.opts.notice ?? this.opts.trace)?.(this.redactor.text(line));
  }
}

/** What the retry policy reads of an answer: its status, Retry-After, and whether it is a 409 "still being processed". */
function answered(
  a: Answer,
  busyKey: string | undefined,
): Pick<AttemptOutcome, 'status' | 'retryAfter' | 'inProgress'> {
  return { status: a.status, retryAfter: headerValue(a.headers['retry-after']), inProgress: busyKey !== undefined };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The string and number values of a JSON body's secret keys, at any depth, remembered for
 * redaction: everything under such a key (a list of tokens, the supplemental `information`'s answers).
 */
function rememberJsonSecrets(
  redactor: Redactor,
  value: unknown,
  depth = 0,
  secret = false,
  parent: string | undefined = undefined,
): void {
  if (depth > 32) return;
  if (secret && typeof value === 'string') redactor.add(value);
  else if (secret && typeof value === 'number') redactor.add(String(value));
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) rememberJsonSecrets(redactor, v, depth + 1, secret, parent);
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    rememberJsonSecrets(redactor, v, depth + 1, secret || isSecretKey(k, parent), k);
}

function rememberQuerySecrets(redactor: Redactor, url: string): void {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return;
  }
  for (const [k, v] of params) if (isSecretName(k)) redactor.add(v);
}

/** A service's answer that is not a success: what deciding on a retry and the error need. */
interface Answer {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  text: string;
  ids: string;
}

export function authHeader(auth: Auth): string {
  if (auth.scheme === 'Basic')
    return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  // a header cannot carry it: refused before anything is sent (undici's refusal would be taken for
  // a network error, retried and exit 8); the token itself is not shown
  if (!HEADER_SAFE.test(auth.token)) throw unsendableToken(auth.scheme, auth.token);
  return `${auth.scheme} ${auth.token}`;
}

/** What a header value may hold: visible ASCII and spaces inside (no control character, nothing past 0x7e). */
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function unsendableToken(scheme: 'Bearer' | 'Token', token: string): UsageError {
  const what =
    scheme === 'Token'
      ? "the connector token (--connector-token, BANKCTL_CONNECTOR_TOKEN or the profile's connector-token)"
      : "the bearer token (--token, BANKCTL_TOKEN or the profile's token)";
  const why =
    token === ''
      ? 'is empty'
      : /[\r\n]/.test(token)
        ? 'ends in or holds a line break (a file with Windows line ends?)'
        : /^\s|\s$/.test(token)
          ? 'starts or ends with white space'
          : 'holds a character an HTTP header cannot carry (a control character or one outside ASCII)';
  return new UsageError(`${what} ${why}: it cannot be sent`, { hint: 'give the token alone, as it was issued' });
}

/**
 * Reads a body up to `limit` bytes, counting as it streams: past the limit the connection is
 * dropped and the rest never read ('truncate' keeps what was read; 'fail' answers undefined).
 * A Content-Length over the limit is refused before the first byte.
 */
export async function readLimited(
  res: Dispatcher.ResponseData,
  limit: number,
  over: 'truncate' | 'fail',
): Promise<Buffer | undefined> {
  const declared = Number(headerValue(res.headers['content-length']));
  if (over === 'fail' && Number.isFinite(declared) && declared > limit) {
    // nothing reads the body: undici's "Request aborted" on destroy() would be an unhandled
    // 'error' event (exit 1 with a stack after the right error line)
    res.body.on('error', () => undefined);
    res.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (total + chunk.length > limit) {
      if (over === 'truncate') chunks.push(chunk.subarray(0, limit - total));
      res.body.on('error', () => undefined);
      res.body.destroy();
      return over === 'truncate' ? Buffer.concat(chunks) : undefined;
    }
    chunks.push(chunk);
    total += chunk.length;
  }
  return Buffer.concat(chunks, total);
}

async function readBody(
  res: Dispatcher.ResponseData,
  type: NonNullable<RequestOptions['responseType']>,
  limit: number,
  tooLarge: () => Error,
): Promise<unknown> {
  if (type === 'stream') return res.body as Readable;
  const bytes = await readLimited(res, limit, 'fail');
  if (!bytes) throw tooLarge();
  if (type === 'buffer') return bytes;
  // as undici's text() did: UTF-8, a leading byte order mark dropped
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (type === 'text') return text;
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** One exchange, ended by the caller's signal or the timeout, whichever comes first. */
function requestUntil(
  url: string,
  o: Pick<Dispatcher.RequestOptions, 'method' | 'headers' | 'body'> & { dispatcher: Dispatcher },
  outer: AbortSignal | undefined,
  timeoutMs: number,
): ReturnType<typeof undiciRequest> {
  const signal = combineSignals(outer, timeoutMs);
  return untilAborted(signal, undiciRequest(url, { ...o, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }));
}

/**
 * The request, or the signal's reason as soon as it aborts. undici leaves a request queued while a
 * proxy keeps refusing the tunnel (it reconnects without end, deaf to the signal): --timeout and
 * Ctrl-C must end the wait all the same. The dispatcher is closed with the command.
 */
function untilAborted<T>(signal: AbortSignal, p: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function combineSignals(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const t = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, t]) : t;
}

function networkCode(err: unknown): string {
  const e = err as { code?: string; name?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT')
    return 'ETIMEDOUT';
  return e?.code ?? e?.cause?.code ?? e?.name ?? 'ERROR';
}

/** A change that is not sent twice by itself and got no answer: a script must not blindly send it again either. */
function unansweredChangeHint(method: string, idempotent: boolean | undefined, code?: string): string | undefined {
  if ((idempotent ?? IDEMPOTENT_METHODS.has(method)) || !mayHaveArrived(code)) return undefined;
  return `the ${method} may have reached the service and been carried out; bankctl did not send it again: check before running it again`;
}

function networkHint(code: string | undefined): string | undefined {
  if (code === 'ECONNREFUSED') return 'is the service running? For the local sandbox: `bankctl sandbox start`';
  if (code && UNTRUSTED_CERT_CODES.has(code))
    return 'trust its CA with --ca-file FILE (or BANKCTL_CA_FILE, NODE_EXTRA_CA_CERTS)';
  if (code === PIN_MISMATCH)
    return 'check --pin (or BANKCTL_PIN); several pins may be given, comma-separated, during a rotation';
  return undefined;
}

function describeNetworkError(err: unknown, code: string | undefined): string {
  if (code && UNTRUSTED_CERT_CODES.has(code)) return `the server's TLS certificate is not trusted (${code})`;
  if (code === 'CERT_HAS_EXPIRED') return "the server's TLS certificate has expired (CERT_HAS_EXPIRED)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's TLS certificate does not name this host (${(err as Error).message})`;
  if (code === PIN_MISMATCH) return (err as Error).message;
  if (code === 'ETIMEDOUT') return 'timed out (see --timeout)';
  if (code === 'UND_ERR_ABORTED' || code === 'AbortError') return 'aborted';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset by the server';
  if (code === 'ENOTFOUND') return 'host not found';
  const msg = (err as Error)?.message ?? String(err);
  return code && !msg.includes(code) ? `${msg} (${code})` : msg;
}

/** A 3xx: where it points (not followed: the Authorization header must not go elsewhere). */
function redirectHint(status: number, location: string | undefined, redactor: Redactor): string | undefined {
  if (status < 300 || status >= 400) return undefined;
  const where = location ? stripControl(redactor.url(location)).slice(0, 200) : '';
  return `the service redirected${where ? ` to ${where}` : ''}; bankctl follows no redirect (the token would go along): check --base-url`;
}

/** The service asked for a wait longer than bankctl makes: when to try again. */
function waitHint(waitMs: number | undefined, nowMs: number): string | undefined {
  if (waitMs === undefined) return undefined;
  const date = new Date(nowMs + waitMs);
  // a wait past any date (Retry-After: 99999999999999999999) threw RangeError: exit 1 as if a bug
  if (Number.isNaN(date.getTime()))
    return 'the service asks for a wait past any date (Retry-After), longer than bankctl waits by itself: try again later';
  const s = Math.ceil(waitMs / 1000);
  const at = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `the service asks to wait ${s} s (Retry-After), longer than bankctl waits by itself: try again after ${at}`;
}

function hintFor(status: number, auth: Auth | undefined, url = '', body?: unknown, message = ''): string | undefined {
  if (status !== 401 && status !== 404) return undefined;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url;
  }
  const inPath = /\/connector\/users\/([^/]+)/.exec(path)?.[1];
  const connectorUser = inPath === undefined ? undefined : safeDecodeURI(inPath);
  const who = connectorUser
    ? ` and that connector user ${connectorUser} exists (\`bankctl connector users create\`)`
    : '';
  // the connector API answers 401 for a user it does not know (spec: "401 user not found"), its
  // transaction endpoints 404 (the vendor's reference: "User with the given external id not found");
  // the token was fine, so the hint names the user, not the token
  const userMissing =
    envelopeCode(body) === 'user.not_found' ||
    (status === 404 && connectorUser !== undefined && /\buser\b[^.]*\bnot found\b/i.test(message));
  if (userMissing && (auth?.scheme === 'Token' || auth?.scheme === 'Basic'))
    return `no connector user ${connectorUser ? `${connectorUser} ` : ''}on the service: create it with \`bankctl connector users create --external-id ${connectorUser ?? '<external-id>'} --market <market> --user-token-stdin < token.txt\``;
  if (status !== 401) return undefined;
  // the token endpoint itself refused the client (auth login with a wrong id): no "run auth login"
  if (/\/oauth\/token$/.test(path))
    return 'the client id or secret was refused: check both (`bankctl auth status` shows where they come from)';
  if (auth?.scheme === 'Token') return `check the connector token (--connector-token, BANKCTL_CONNECTOR_TOKEN)${who}`;
  if (auth?.scheme === 'Basic') return `check --basic (user:token, BANKCTL_BASIC) for ${auth.username}${who}`;
  if (!auth) return 'this call needs credentials: run `bankctl auth login` or pass --token';
  return `check the token or the client credentials (\`bankctl auth status\`)${who}`;
}

function safeDecodeURI(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3 && n % 1024 ** 3 === 0) return `${n / 1024 ** 3} GiB`;
  if (n >= 1024 ** 2 && n % 1024 ** 2 === 0) return `${n / 1024 ** 2} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function formatDelay(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${ms}ms`;
}
