import type { Command } from 'commander';
import { stripControl } from '../output/sanitize.js';
import type { Context } from '../context.js';
import { ApiError, ServerError, shellWord, UsageError } from '../errors.js';
import { EmptyPages, nextPageTokenProblem, repeatedTokenError, SeenTokens } from '../api/paging.js';
import { kindOf } from '../api/shape.js';
import { notWhatItReturns, preview } from '../api/client.js';
import type { HttpResponse } from '../http/client.js';
import type { Redactor } from '../http/redact.js';
import { maskUrlPassword } from '../config/display.js';
import { render, StreamWriter } from '../output/render.js';
import { jsonForStdout } from '../output/terminal.js';
import type { TokenKind } from '../contract/endpoint.js';
import { ExactNumber, readJson, writeJson } from '../contract/exact-json.js';
import { endpointFor, ENDPOINTS } from '../contract/index.js';
import { isSecretKey, isSecretName } from '../contract/secret-names.js';
import { completeArguments, completeOption } from './completion.js';
import { collect, examples, parseKeyValue, splitList } from './util.js';
import { inputReadError, readInputFile, readStreamText } from '../fs/read-input.js';
import { envelopeCode } from '../http/error-body.js';
import { inProgressConflict } from '../http/retry.js';

interface ApiOpts {
  field?: string[];
  rawField?: string[];
  input?: string;
  paginate?: boolean;
  scope?: string;
  as?: string;
  form?: boolean;
  header?: string[];
  include?: boolean;
  dryRun?: boolean;
}

/** -F values are typed: numbers, booleans and null become JSON, @file reads a file. */
function typed(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v) && String(Number(v)) === v) return Number(v);
  return v;
}

/** `api METHOD PATH`: fills in the `api` command src/program.ts made (with its description). */
export function registerApi(api: Command, ctx: Context): void {
  const cmd = api
    .argument('<method>', 'HTTP method')
    .argument('<path>', 'path under the base URL, e.g. /api/v1/providers')
    .option(
      '-f, --raw-field <key=value>',
      'a string parameter: query for GET/DELETE, JSON body field otherwise (repeatable)',
      collect,
    )
    .option('-F, --field <key=value>', 'a typed parameter: numbers, true/false and null as JSON (repeatable)', collect)
    .option('--input <file>', 'the request body from a file ("-" for stdin), sent as JSON')
    .option('--form', 'send the fields form-encoded instead of JSON')
    .option('-H, --header <name:value>', 'an extra request header (repeatable)', collect)
    .option('--paginate', 'follow nextPageToken to the last page, printing every item')
    .option(
      '--scope <scopes>',
      'scopes for the token (default: what the endpoint table says; required with --as for a path outside it)',
    )
    .option(
      '--as <kind>',
      'token to send: client, user, connector or none (default: what the endpoint table says; a path outside the table needs --as or --scope)',
    )
    .option('-i, --include', 'print the status line and response headers (to stderr: stdout stays the body)')
    .option('--dry-run', 'print the request that would be sent (secrets redacted) and send nothing')
    .action(async (methodIn: string, path: string, o: ApiOpts) => {
      const method = methodIn.toUpperCase();
      if (!/^[A-Z]+$/.test(method)) throw new UsageError(`"${methodIn}" is not an HTTP method`);
      if (!path.startsWith('/')) throw new UsageError(`the path must start with "/", got "${path}"`);
      if (o.as && !['client', 'user', 'connector', 'none', 'any'].includes(o.as))
        throw new UsageError(`--as must be one of client, user, connector, none, got "${o.as}"`);
      const { query, ...body } = await requestParts(ctx, method, path, o);
      const headers = parseHeaders(o);
      if (o.dryRun) return dryRun(ctx, method, path, { query, ...body }, headers, o);
      const api = await ctx.api();
      const call: Call = (q) =>
        api.request<unknown>({
          method,
          path,
          query: q,
          ...body,
          headers,
          as: o.as as TokenKind | undefined,
          scopes: o.scope !== undefined ? splitList(o.scope, '--scope') : undefined,
          responseType: 'text',
        });
      // --paginate: whether items are on stdout already (an error body then is not added after them)
      const printed = { items: false };
      try {
        if (o.paginate) return await paginate(ctx, method, call, query, printed, pageTokenParam(method, path));
        const res = await call(query);
        if (o.include) await writeHead(ctx, res.status, res.headers);
        // --jq reads JSON: a 2xx body that is none (a login page, a proxy's text) is the service's
        // fault, not a raw body printed with exit 0 where the script asked for one value
        const text = res.data as string;
        if (ctx.globals.jq !== undefined && text && typeof parseMaybe(text) === 'string')
          throw notWhatItReturns({ method }, res, 'a body that is not JSON (--jq reads JSON)', text);
        await writeAnswer(ctx, text);
      } catch (err) {
        if (o.include && err instanceof ApiError) await writeHead(ctx, err.status, err.headers);
        // the answer to this request, not to the token request made for it
        if (err instanceof ApiError && err.body !== undefined && answers(err, method, path) && !printed.items)
          await writeBody(ctx, typeof err.body === 'string' ? err.body : writeJson(err.body));
        if (err instanceof ApiError) inProgressHint(err, headers);
        throw err;
      }
    });
  // the methods and paths of the endpoint table complete
  completeArguments(cmd, () => [...new Set([...ENDPOINTS.map((e) => e.method), ...ENDPOINTS.map((e) => e.path)])]);
  completeOption(cmd, '--as', () => ['client', 'user', 'connector', 'none']);
  examples(cmd, [
    'bankctl api GET /api/v1/providers --user $U -f includeTestProviders=true   # as a user (a user token), with the test providers',
    'bankctl api POST /api/v1/user/create -f market=SE -f locale=sv_SE',
    'bankctl api GET /data/v2/transactions --user $U --paginate -o ndjson',
    'bankctl api POST /connector/users --input user.json',
    'bankctl api GET /api/v1/providers/SE -i --jq ".providers[].name"',
    'bankctl api POST /api/v1/user/create -f market=SE --dry-run',
  ]);
}

type Call = (query?: Record<string, string>) => Promise<HttpResponse<unknown>>;

/** -f and -F values by name (-F typed). */
function parseParams(o: ApiOpts): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const f of o.rawField ?? []) {
    const [k, v] = parseKeyValue(f, '-f');
    params[k] = v;
  }
  for (const f of o.field ?? []) {
    const [k, v] = parseKeyValue(f, '-F');
    params[k] = typed(v);
  }
  return params;
}

/**
 * A 409 "still being processed" that the HTTP core retried with the -H Idempotency-Key given, and
 * that was still in progress after --retries: the way to the first request's answer is this command
 * again with that same header (another key, or none, would send the write a second time).
 */
function inProgressHint(err: ApiError, headers: Record<string, string>): void {
  if (err.status !== 409) return;
  const key = Object.entries(headers).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
  if (key === undefined || !inProgressConflict(envelopeCode(err.body), err.serviceMessage)) return;
  err.hint = `the service was still processing the first request with this Idempotency-Key; run the same command again with the same -H ${shellWord(`Idempotency-Key: ${key}`)} header to get its answer; another key, or none, sends it a second time`;
}

function parseHeaders(o: ApiOpts): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of o.header ?? []) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`-H expects name:value, got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return headers;
}

interface Parts {
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
  form?: Record<string, string>;
}

/**
 * Where the parameters go: --input is the JSON body (the fields then go in the query); GET and
 * DELETE put them in the query; /oauth/ paths and --form send a form; anything else a JSON body.
 * JSON is written exactly: a number keeps the digits it was given.
 */
async function requestParts(ctx: Context, method: string, path: string, o: ApiOpts): Promise<Parts> {
  const params = parseParams(o);
  const strings = () => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const json = (v: unknown): Parts => ({ body: writeJson(v), contentType: 'application/json' });
  if (o.input) {
    const input = o.input;
    const text = await (input === '-' ? readStreamText(ctx.io.stdin) : readInputFile(input)).catch((e: unknown) => {
      throw inputReadError(e, input === '-' ? 'stdin' : input);
    });
    let value: unknown;
    try {
      value = readJson(text);
    } catch (e) {
      throw new UsageError(`${o.input} is not valid JSON: ${(e as Error).message}`);
    }
    return { ...json(value), query: Object.keys(params).length ? strings() : undefined };
  }
  if (method === 'GET' || method === 'DELETE' || method === 'HEAD') return { query: strings() };
  if (o.form || /\/oauth\//.test(path)) return { form: strings() };
  return Object.keys(params).length ? json(params) : {};
}

/**
 * Every item of every page (the first array of each page), following nextPageToken to the end. A
 * nextPageToken seen before in this walk (the same twice in a row, or A -> B -> A) is the service's
 * fault and stops it (exit 7). When a later page fails that way, or any other, a JSON array printed
 * so far stays open (a whole-looking document of some pages would pass for the answer), NDJSON lines
 * are whole, and --jq's buffered result is not printed.
 */
async function paginate(
  ctx: Context,
  method: string,
  call: Call,
  query: Record<string, string> | undefined,
  printed: { items: boolean },
  tokenParam = 'pageToken',
): Promise<void> {
  const format = await ctx.outputFormat();
  const writer = new StreamWriter(ctx, format === 'table' ? 'json' : format);
  let pageToken: string | undefined;
  const seen = new SeenTokens();
  const empty = new EmptyPages();
  let pages = 0;
  // A page that fails leaves a JSON array unclosed, as every list walk does: the pages read so far
  // must not look like the whole answer to whatever reads stdout later (the exit code says why).
  do {
    const res = await call({ ...query, ...(pageToken ? { [tokenParam]: pageToken } : {}) });
    pages++;
    const page = parseMaybe(res.data as string) as Record<string, unknown>;
    const list = pageList(page);
    // an answer without a list is no page: printing [] would lose it with exit 0. The first answer
    // is the endpoint the user named; a later one is the service's fault, mid-walk
    // a body that is not JSON at all (a login page, a proxy's text) is the service's fault, whatever was asked
    if (list === undefined && pages === 1 && typeof page === 'string')
      throw notWhatItReturns({ method }, res, 'a body that is not JSON', page);
    if (list === undefined && pages === 1)
      throw new UsageError(
        `--paginate: the answer has no list to page through (it is ${kindOf(page)}); run it without --paginate`,
      );
    if (list === undefined)
      throw pageFault(
        pages,
        typeof page === 'string' ? `a body that is not JSON: "${preview(page)}"` : `no list (it is ${kindOf(page)})`,
      );
    for (const item of list) {
      printed.items = true;
      await writer.write(item);
    }
    // a list endpoint that is not paged has no nextPageToken; once following pages, each must say
    // whether more follow ("" on the last): a page without it, or with null, ends nothing
    const next = Array.isArray(page) ? undefined : page.nextPageToken;
    const problem = nextPageTokenProblem(next, pages > 1);
    if (problem) throw pageFault(pages, problem);
    pageToken = (next as string | undefined) || undefined;
    if (pageToken && seen.repeated(pageToken)) throw repeatedTokenError(pageToken, pages);
    if (pageToken) empty.note(list.length, pageToken);
  } while (pageToken);
  await writer.end();
}

/**
 * The query parameter that carries a page's token back: the endpoint table's (connectivity v2 lists
 * take `page_token`, and send the token they ignore under any other name back to the first page),
 * else data v2's `pageToken`.
 */
function pageTokenParam(method: string, path: string): string {
  return endpointFor(method, path)?.query?.includes('page_token') ? 'page_token' : 'pageToken';
}

/** A page after which the walk cannot go on: the service's fault (exit 7), what was printed is incomplete. */
function pageFault(page: number, problem: string): ServerError {
  return new ServerError(`--paginate: page ${page} has ${problem}`, {
    hint: 'the service answered something that is not what the endpoint returns; what was printed is incomplete',
  });
}

/**
 * The items of a page: a bare list, the first list of an object that has a nextPageToken, or the
 * one member of an object that holds nothing but a list ({accounts: [...]}). Anything else (a
 * single object that merely has a list among its fields) is no page.
 */
function pageList(page: unknown): unknown[] | undefined {
  if (Array.isArray(page)) return page;
  if (page === null || typeof page !== 'object') return undefined;
  const values = Object.values(page);
  if ('nextPageToken' in page) return values.find(Array.isArray) as unknown[] | undefined;
  return values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : undefined;
}

/** Whether an error is the service's answer to this method and path (not to a token request made for it). */
function answers(err: ApiError, method: string, path: string): boolean {
  try {
    // (ending in it: a base URL with a path, a gateway's /x, comes before it)
    return err.method === method && new URL(err.url).pathname.endsWith(new URL(path, 'http://x').pathname);
  } catch {
    return false;
  }
}

/** JSON read exactly (numbers keep their digits), or the text when it is not JSON. */
function parseMaybe(text: string): unknown {
  try {
    return readJson(text);
  } catch {
    return text;
  }
}

/** `-i`: the status line and the response headers, on stderr. */
async function writeHead(
  ctx: Context,
  status: number,
  headers: Record<string, string | string[] | undefined>,
): Promise<void> {
  // a header may echo what was sent (a request id made of the Authorization header): redacted too.
  // Headers are stderr's diagnostics, like -v: what the service newly issues in them is hidden as
  // there (a session cookie, a code or token in a redirect's URL, by the error's and the trace's
  // URL rule); the escape hatch's data is the body, printed whole on stdout
  const { redactor } = await ctx.http();
  const lines = [`HTTP ${status}`];
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) {
      const shown =
        isSecretName(k) || /^(set-cookie|authorization)$/i.test(k)
          ? '<redacted>'
          : URL_HEADER.test(k)
            ? headerUrl(redactor, one)
            : redactor.text(one);
      lines.push(`${stripControl(k)}: ${stripControl(shown)}`);
    }
  }
  ctx.io.stderr.write(`${lines.join('\n')}\n\n`);
}

/** Headers whose value is a URL, absolute or relative (RFC 9110 10.2.2, 8.7). */
const URL_HEADER = /^(location|content-location)$/i;

/** A URL header's value with secret parameters hidden (code, access_token... in the query or fragment). */
function headerUrl(redactor: Redactor, value: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return redactor.url(value);
  // a relative reference (/cb?code=..., //host/cb?..., cb#access_token=...): its path kept as
  // sent, its query and fragment redacted as an absolute URL's are
  const at = value.search(/[?#]/);
  if (at < 0) return redactor.text(value);
  const origin = 'http://relative.invalid/';
  const rest = redactor.url(`${origin}${value.slice(at)}`);
  return `${redactor.text(value.slice(0, at))}${rest.startsWith(origin) ? rest.slice(origin.length) : redactor.text(value.slice(at))}`;
}

/** A query value's stand-in while the URL is built (URL-encoded as %00redacted%00). */
const HIDDEN = '\0redacted\0';

/** `--dry-run`: the request as it would go out; no token is fetched and nothing is sent. */
async function dryRun(
  ctx: Context,
  method: string,
  path: string,
  parts: Parts,
  headers: Record<string, string>,
  o: ApiOpts,
): Promise<void> {
  const url = new URL(path, `${await ctx.baseUrl()}/`);
  // the query's secrets and the base URL's password are not shown, as the headers' and body's are not
  for (const [k, v] of Object.entries(parts.query ?? {})) url.searchParams.set(k, v);
  // (also those written into the path: /x?access_token=...)
  for (const k of new Set(url.searchParams.keys())) if (isSecretName(k)) url.searchParams.set(k, HIDDEN);
  const shown = maskUrlPassword(url.toString()).replaceAll('%00redacted%00', '<redacted>');
  const out: string[] = [`${method} ${shown}`];
  const as = o.as ? `a ${o.as} token` : 'the token the endpoint table names';
  if (o.as !== 'none') out.push(`Authorization: <redacted: ${as}${o.scope ? `, scope ${o.scope}` : ''}>`);
  if (parts.contentType) out.push(`Content-Type: ${parts.contentType}`);
  if (parts.form) out.push('Content-Type: application/x-www-form-urlencoded');
  for (const [k, v] of Object.entries(headers)) out.push(`${k}: ${isSecretName(k) ? '<redacted>' : v}`);
  if (parts.body !== undefined) {
    const value = parseMaybe(parts.body);
    out.push('', typeof value === 'string' ? value : writeJson(redactFields(value), 2));
  } else if (parts.form) {
    const f = new URLSearchParams();
    for (const [k, v] of Object.entries(parts.form)) f.set(k, isSecretName(k) ? '<redacted>' : v);
    out.push('', f.toString());
  }
  ctx.io.stdout.write(`${stripControl(out.join('\n'))}\n`);
  ctx.notice('dry run: nothing was sent');
}

/** The values of secret-named keys hidden: every string and number under one (a list of tokens too). */
function redactFields(v: unknown, secret = false, parent?: string): unknown {
  if (secret && (typeof v === 'string' || typeof v === 'number' || v instanceof ExactNumber)) return '<redacted>';
  if (Array.isArray(v)) return v.map((x) => redactFields(x, secret, parent));
  if (v && typeof v === 'object' && v.constructor === Object)
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, redactFields(x, secret || isSecretKey(k, parent), k)]),
    );
  return v;
}

/**
 * A 2xx body. `-o ndjson`, `-o csv` and `--fields` shape it like any command's answer: the items of
 * the list it holds (as --paginate finds it), or the object itself; otherwise (json, the default)
 * the body goes out whole, as the service sent it.
 */
async function writeAnswer(ctx: Context, text: string | undefined): Promise<void> {
  const format = await ctx.outputFormat();
  const shaped = format === 'ndjson' || format === 'csv' || ctx.globals.fields !== undefined;
  const parsed = text ? parseMaybe(text) : undefined;
  if (!shaped || ctx.globals.jq !== undefined || parsed === undefined || typeof parsed === 'string')
    return writeBody(ctx, text);
  try {
    await render(ctx, pageList(parsed) ?? parsed);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    // the service's body, not the user's options: -o json (the default) prints it as it came
    throw new ServerError('the answer is JSON nested too deep to reshape into rows', {
      hint: 'run it with -o json to get the body as it came, and without --fields',
    });
  }
}

async function writeBody(ctx: Context, text: string | undefined): Promise<void> {
  if (text === undefined || text === '') return;
  let parsed = parseMaybe(text);
  if (ctx.globals.jq !== undefined && typeof parsed !== 'string') {
    const { runJq } = await import('../output/jq.js');
    const { jqForStdout } = await import('../output/render.js');
    ctx.io.stdout.write(
      jqForStdout(ctx, await runJq(rewritten(parsed, text), ctx.globals.jq, false, (t) => ctx.io.stderr.write(t))),
    );
    return;
  }
  // JSON nested deeper than a stack can write again goes out as it came
  let pretty = '';
  if (typeof parsed !== 'string') {
    pretty = rewritten(parsed, text, 2);
    if (pretty === text) parsed = text;
  }
  // a body that is not JSON goes out as it came, but to a terminal without its control sequences:
  // the stdout guard lets colour through, and black on black hides text as well as any escape
  const raw = ctx.io.stdoutIsTTY ? stripControl(text) : text;
  ctx.io.stdout.write(
    typeof parsed === 'string' ? (raw.endsWith('\n') ? raw : `${raw}\n`) : `${jsonForStdout(ctx, pretty)}\n`,
  );
}

/**
 * The body written out again (indented), or as it came when that cannot be done: JSON nested some
 * 10,000 deep parses, but writing it again overflows the stack (`unexpected: Maximum call stack
 * size exceeded`, exit 1, and nothing printed).
 */
function rewritten(parsed: unknown, text: string, indent?: number): string {
  try {
    return writeJson(parsed, indent);
  } catch (err) {
    if (err instanceof RangeError) return text;
    throw err;
  }
}
