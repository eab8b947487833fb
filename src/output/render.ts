// Renders command results in the -o format: json (objects as returned, unknown properties kept),
// ndjson (one object a line), csv (RFC 4180 with a header row, amounts as plain decimals with the
// currency in a column of its own), table (table.ts: gh-like, fitted to the terminal).
// --fields picks paths for every format, --jq filters json and ndjson (jq.ts), and a long table on
// a terminal goes through a pager (pager.ts). stdout gets data only.
import type { Context, OutputFormat } from '../context.js';
import { ExactNumber, parseExactJson, writeJson } from '../contract/exact-json.js';
import { formatAmount, isExactAmount } from './money.js';
import { singleLine, stripControl } from './sanitize.js';
import { SMALL_TABLE, Table, verticalTable, type TableOptions } from './table.js';
import { jsonForStdout, terminalJson } from './terminal.js';
import { checkPaths, fieldsRequest, knownPaths, project, type FieldsRequest } from './fields.js';
import { PagedOutput, pagerCommand } from './pager.js';
import { UsageError } from '../errors.js';

export interface Column {
  header: string;
  /** Dotted path into the item. */
  path: string;
  /**
   * Where else the cell is read, in order, when the item has nothing (or "") at `path`: the older
   * Swagger's name beside the vendor's current one (`insightType`, else `type`), so a column reads
   * either service; or the same fact in another of the service's optional fields (an account with
   * only an IBAN, a transaction with only `bookedDateTime`).
   */
  alt?: string | readonly string[];
  format?: (value: unknown, item: unknown) => string;
  /**
   * csv: an amount with its currency, written as two columns (the decimal, the currency) whatever
   * the rows hold; unset, the first row with a cell in the column decides.
   */
  money?: boolean;
}

export interface RenderSpec {
  /** Default columns for table and csv; --fields overrides. */
  columns?: Column[];
  /** Table only: a single object is shown as key/value rows. */
  vertical?: boolean;
  /** The leaf paths an item may carry by the service's reference (contract/item-fields.ts): --fields takes them on any page. */
  declared?: readonly string[];
}

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Keys of epoch-ms values: createdTime, lastRefreshed, lastModified, a budget period's start and end... */
const EPOCH_KEY = /(date|updated|created|expiry|expires|timestamp|time|refreshed|modified|finished|^start|^end)$/i;
/** dateArchived, dateCreated...: the insights' epoch-ms keys put "date" first. */
const DATE_FIRST = /^date[A-Z]/;

/**
 * Network text for a cell: stripped of control sequences, but a line break of another kind (a lone
 * CR, VT, FF, NEL) is kept as the line feed it stands for rather than dropped ("Rent\rPaid" is not
 * "RentPaid"): a table shows every break as a space (table.ts), csv quotes the cell.
 */
function cellClean(text: string): string {
  return stripControl(/[\r\v\f\x85]/.test(text) ? text.replace(/\r\n|[\r\v\f\x85]/g, '\n') : text);
}

/** A cell as a person reads it: exact amounts with currency, epoch ms as ISO, no control chars. */
export function cellText(value: unknown, key = ''): string {
  if (value === undefined || value === null) return '';
  // a JSON number a double could not hold: shown with the digits the service sent
  if (value instanceof ExactNumber) return value.text;
  if (isExactAmount(value)) return formatAmount(value, true, key || 'amount');
  if (typeof value === 'number' && (EPOCH_KEY.test(key) || DATE_FIRST.test(key)) && value > 1e11 && value < 1e14)
    return new Date(value).toISOString();
  if (typeof value === 'string') return cellClean(value);
  if (typeof value === 'object') return stripControl(writeJson(value));
  return String(value);
}

function fieldsOf(ctx: Context): FieldsRequest {
  return fieldsRequest(ctx.globals.fields);
}

export function columnsFor(ctx: Context, items: unknown[], spec: RenderSpec): Column[] {
  const f = fieldsOf(ctx);
  if (f.kind === 'paths')
    // a path the command has a column for is shown as that column is (an amount with its currency,
    // two csv columns even when there is no row); any other as the value at that path
    return f.paths.map((p) => {
      // by its path, else by its header: search's `amount` column reads currencyDenominatedAmount
      // and statistics' `value` the exact amount, so `--fields id,amount` is that column (with its
      // currency), not the bare number beside it (-970 for -970.00, and no currency)
      const own = spec.columns?.find((c) => c.path === p) ?? spec.columns?.find((c) => c.header === p);
      return own ? { ...own, header: stripControl(p) } : { header: stripControl(p), path: p };
    });
  if (spec.columns && spec.columns.length > 0) return spec.columns;
  const keys = new Set<string>();
  for (const item of items.slice(0, 50)) {
    if (item && typeof item === 'object' && !Array.isArray(item)) Object.keys(item).forEach((k) => keys.add(k));
  }
  if (keys.size === 0) return [{ header: 'value', path: '' }];
  // keys come from the network: a header is text for a terminal like any cell
  return [...keys].map((k) => ({ header: stripControl(k), path: k }));
}

/**
 * jq's output for stdout: on a terminal, its raw strings (as `gh --jq` prints them) are bank text
 * like any cell, so they are stripped of escape sequences (a colour could hide part of a line);
 * JSON in it has its controls escaped already.
 */
export function jqForStdout(ctx: Context, out: string): string {
  return ctx.io.stdoutIsTTY ? stripControl(terminalJson(out)) : out;
}

function headStyle(ctx: Context): (s: string) => string {
  return ctx.stdoutColor ? (s) => `\x1b[1m${s}\x1b[22m` : (s) => s;
}

/** The width a table fits: COLUMNS or the terminal's; no limit when stdout is not a terminal. */
export function tableOptions(ctx: Context): TableOptions {
  const tty = ctx.io.stdoutIsTTY;
  const cols = Number(ctx.env.COLUMNS);
  const width = tty ? (Number.isInteger(cols) && cols > 0 ? cols : ctx.io.columns || 80) : Infinity;
  return { width, wide: Boolean(ctx.globals.wide), tty, headStyle: headStyle(ctx) };
}

/** What a column reads from an item: the item itself for the path '', else the value at the path (or at alt). */
function valueAt(item: unknown, col: Column): unknown {
  if (col.path === '') return item;
  const v = getPath(item, col.path);
  if ((v !== undefined && v !== '') || col.alt === undefined) return v;
  for (const path of typeof col.alt === 'string' ? [col.alt] : col.alt) {
    const w = getPath(item, path);
    if (w !== undefined && w !== '') return w;
  }
  return v;
}

/** A column's cell of an item, as tables and csv show it. */
export function cell(item: unknown, col: Column): string {
  const v = valueAt(item, col);
  if (col.format) return cellClean(col.format(v, item));
  return cellText(v, col.path.split('.').pop());
}

export function csvEscape(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: string[]): string {
  return `${values.map(csvEscape).join(',')}\r\n`;
}

/** An amount and its currency code (any code of letters and digits, as the table takes it). */
const MONEY = /^([+-]?\d+(?:\.\d+)?) ([A-Za-z0-9]{1,12})$/;
/** A command's own formatted amount: the decimal and an ISO 4217 code ("-13.07 SEK"). */
const FORMATTED_MONEY = /^[+-]?\d+(?:\.\d+)? [A-Z]{3}$/;

/**
 * csv columns: a money column (an amount with its currency, "-13.07 SEK") becomes two, the plain
 * decimal and the currency, so a spreadsheet reads the number; a row without an amount leaves both
 * empty. The columns are fixed by the column (money) or by the first rows with a cell in it.
 */
class CsvLayout {
  readonly header: string[];
  private readonly split: boolean[];

  /** sample: the rows at hand when the header is written (all of them, or a stream's first batch). */
  constructor(
    private readonly cols: Column[],
    sample: unknown[],
  ) {
    // not the first row alone: an account without a balance first must not turn every later
    // balance into text ("129750.50 SEK") under a header without its currency column. A column
    // is money by what it holds, never because some text reads like money: a description
    // "7 Eleven" under --fields stays one cell, not the number 7 in the currency "Eleven".
    this.split = cols.map((c) => {
      if (c.money !== undefined) return c.money;
      for (const item of sample) {
        if (c.format) {
          // a command's own cell: money when it wrote an amount and its currency code
          const text = cell(item, c);
          if (text !== '') return FORMATTED_MONEY.test(text);
        } else {
          const v = valueAt(item, c);
          if (v !== undefined && v !== null) return isExactAmount(v);
        }
      }
      return false;
    });
    const money = this.split.filter(Boolean).length;
    this.header = [];
    cols.forEach((c, i) => {
      this.header.push(c.header);
      if (this.split[i]) this.header.push(money === 1 ? 'currency' : `${c.header}_currency`);
    });
  }

  row(item: unknown): string {
    const out: string[] = [];
    for (let i = 0; i < this.cols.length; i++) {
      const text = cell(item, this.cols[i]!);
      if (!this.split[i]) out.push(text);
      else {
        const m = MONEY.exec(text);
        if (m) out.push(m[1]!, m[2]!);
        else out.push(text, '');
      }
    }
    return csvRow(out);
  }
}

/**
 * The paths the rows have, one a line, for `--fields` alone or `--fields help`. They are the
 * answer's keys, text from the network like any cell: one line each, stripped of escape sequences
 * (a colour the terminal guard lets through could hide a path or paint the lines after it).
 */
function pathList(ctx: Context, items: unknown[], spec: RenderSpec): string {
  const paths = knownPaths(items, spec.declared).map((p) => singleLine(p));
  if (paths.length === 0 && spec.columns) return spec.columns.map((c) => `${c.path}\n`).join('');
  if (paths.length === 0) {
    ctx.notice('no rows to take the paths from');
    return '';
  }
  return paths.map((p) => `${p}\n`).join('');
}

/** json and ndjson: --fields keeps only the chosen paths. */
function projected(ctx: Context, items: unknown[]): unknown[] {
  const f = fieldsOf(ctx);
  if (f.kind !== 'paths') return items;
  return items.map((it) => project(it, f.paths));
}

async function jqText(ctx: Context, json: string, compact: boolean): Promise<string> {
  const { runJq } = await import('./jq.js');
  return jqForStdout(ctx, await runJq(json, ctx.globals.jq!, compact, (t) => ctx.io.stderr.write(t)));
}

/** A --jq that reads inputs beyond its own or stops the run: fed one item at a time. */
const ONE_AT_A_TIME = /\b(inputs?|input_line_number|input_filename|halt|halt_error)\b/;
/** Items fed to one jq run at most (-o ndjson). */
const JQ_BATCH = 500;

/**
 * `-o ndjson --jq`: the lines of each item filtered, in order. jq reads a stream of values, so a
 * page goes through one jq run (a run costs 3 to 5 ms: one per item made 100,000 transactions take
 * minutes). When that run fails, the items go again one at a time, so the error is the failing
 * item's and the lines of those before it are handed to `prefix` before it is thrown.
 */
async function jqEach(ctx: Context, docs: unknown[], prefix: (lines: string) => Promise<void>): Promise<string> {
  const expr = ctx.globals.jq!;
  if (docs.length > 1 && !ONE_AT_A_TIME.test(expr)) {
    const { runJq } = await import('./jq.js');
    let out = '';
    let debug = '';
    try {
      for (let i = 0; i < docs.length; i += JQ_BATCH) {
        const json = docs
          .slice(i, i + JQ_BATCH)
          .map((d) => writeJson(d))
          .join('\n');
        out += await runJq(json, expr, true, (t) => (debug += t));
      }
      if (debug !== '') ctx.io.stderr.write(debug);
      return jqForStdout(ctx, out);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      // one at a time below (its debug lines are written then)
    }
  }
  let lines = '';
  try {
    for (const d of docs) lines += await jqText(ctx, writeJson(d), true);
  } catch (err) {
    if (lines !== '') await prefix(lines);
    throw err;
  }
  return lines;
}

/**
 * Before a verb that changes data sends anything (src/program.ts): the output options that can be
 * checked without its answer. `--fields help` would list the answer's paths only after the change
 * was made, a --jq that does not compile or a format --jq cannot filter would fail only then:
 * each is exit 2 with nothing sent.
 */
export async function checkOutputBeforeChange(ctx: Context, what: string): Promise<void> {
  if (fieldsOf(ctx).kind === 'list')
    throw new UsageError(`--fields help lists the paths of an answer, and ${what} changes data: nothing was sent`, {
      hint: 'give the paths to keep (--fields id,status), or run it without --fields to see the whole answer',
    });
  await ctx.outputFormat();
  if (ctx.globals.jq === undefined) return;
  const { jqCompileProblem } = await import('./jq.js');
  const problem = await jqCompileProblem(ctx.globals.jq);
  if (problem) throw new UsageError(`--jq: ${problem} (nothing was sent)`);
}

export async function render(ctx: Context, data: unknown, spec: RenderSpec = {}): Promise<void> {
  if (!ctx.changing) return renderAs(ctx, data, spec);
  try {
    await renderAs(ctx, data, spec);
  } catch (err) {
    // the change was made: an output option that fails now (a --fields path no answer has, a jq
    // error at run time) must not lose its answer, nor read as "nothing happened"
    if (!(err instanceof UsageError) || !ctx.changesSent()) throw err;
    ctx.io.stdout.write(jsonForStdout(ctx, `${writeJson(data, 2)}\n`));
    throw new UsageError(`${err.message} (${ctx.changing} was done: its whole answer is on stdout)`, {
      hint: err.hint,
    });
  }
}

async function renderAs(ctx: Context, data: unknown, spec: RenderSpec): Promise<void> {
  const format = await ctx.outputFormat();
  if (format === 'table') {
    const out = new PagedOutput(ctx, pagerCommand(ctx));
    if (Array.isArray(data) && data.length > SMALL_TABLE) {
      // a long table goes out row block by row block, through back-pressure (and Ctrl-C)
      const w = new StreamWriter(ctx, 'table', spec, out);
      for (let i = 0; i < data.length && !out.done; i += 1000) await w.writeMany(data.slice(i, i + 1000));
      await w.end();
      return;
    }
    await out.write(await renderToString(ctx, format, data, spec));
    await out.end();
    return;
  }
  ctx.io.stdout.write(await renderToString(ctx, format, data, spec));
}

export async function renderToString(
  ctx: Context,
  format: OutputFormat,
  data: unknown,
  spec: RenderSpec = {},
): Promise<string> {
  const f = fieldsOf(ctx);
  const items = Array.isArray(data) ? data : [data];
  if (f.kind === 'list') return pathList(ctx, items, spec);
  if (f.kind === 'paths') checkPaths(f.paths, items, spec.declared);
  switch (format) {
    case 'json': {
      const shown = f.kind === 'paths' ? (Array.isArray(data) ? projected(ctx, data) : project(data, f.paths)) : data;
      if (ctx.globals.jq) return jqText(ctx, writeJson(shown), false);
      return jsonForStdout(ctx, `${writeJson(shown, 2)}\n`);
    }
    case 'ndjson': {
      const shown = projected(ctx, items);
      if (ctx.globals.jq) return jqEach(ctx, shown, async (lines) => void ctx.io.stdout.write(lines));
      return jsonForStdout(ctx, shown.map((d) => `${writeJson(d)}\n`).join(''));
    }
    case 'csv': {
      const cols = columnsFor(ctx, items, spec);
      const layout = new CsvLayout(cols, items);
      return csvRow(layout.header) + items.map((it) => layout.row(it)).join('');
    }
    case 'table':
      return tableText(ctx, data, spec);
  }
}

function tableText(ctx: Context, data: unknown, spec: RenderSpec): string {
  const opts = tableOptions(ctx);
  if (
    !Array.isArray(data) &&
    (spec.vertical ?? true) &&
    data &&
    typeof data === 'object' &&
    fieldsOf(ctx).kind === 'none'
  ) {
    const entries = Object.entries(data as Record<string, unknown>).map(
      ([k, v]) => [stripControl(k), cellText(v, k)] as [string, string],
    );
    return verticalTable(entries, opts);
  }
  const items = Array.isArray(data) ? data : [data];
  if (items.length === 0) return noRows(ctx);
  const cols = columnsFor(ctx, items, spec);
  const rows = items.map((it) => cols.map((c) => cell(it, c)));
  const t = new Table(
    cols.map((c) => c.header),
    rows.slice(0, SMALL_TABLE),
    opts,
  );
  return t.rows(rows) + t.end();
}

/**
 * An empty table prints nothing on stdout; on a terminal a person is told so on stderr (as gh says
 * "no open pull requests"), or an empty screen could be a filter that matched nothing or a hang.
 */
function noRows(ctx: Context): string {
  if (ctx.io.stdoutIsTTY) ctx.notice('no results');
  return '';
}

/**
 * Streams items as they come: ndjson and csv line by line; json as one array; a table is laid out
 * from its first rows and then drawn row by row (linear, through back-pressure).
 */
export class StreamWriter {
  private count = 0;
  private buffered: unknown[] = [];
  private cols?: Column[];
  private csv?: CsvLayout;
  private table?: Table;
  private checked = false;
  private listed = false;
  private readonly fields: FieldsRequest;
  private readonly jq: boolean;
  private readonly out: PagedOutput;

  constructor(
    private readonly ctx: Context,
    private readonly format: OutputFormat,
    private readonly spec: RenderSpec = {},
    out?: PagedOutput,
  ) {
    this.fields = fieldsOf(ctx);
    this.jq = Boolean(ctx.globals.jq) && (format === 'json' || format === 'ndjson');
    this.out = out ?? new PagedOutput(ctx, format === 'table' ? pagerCommand(ctx) : undefined);
  }

  /** Whether items must be objects here (fields or jq), so raw ndjson lines need parsing. */
  get transforms(): boolean {
    return this.fields.kind !== 'none' || this.jq;
  }

  /** True once the reader quit the pager: a caller may stop fetching. */
  get done(): boolean {
    return this.out.done || this.listed;
  }

  private async emit(chunk: string): Promise<void> {
    await this.out.write(chunk);
  }

  /** --fields checks (and --fields help) on the first items seen. */
  private async gate(items: unknown[]): Promise<boolean> {
    if (this.listed) return false;
    if (this.fields.kind === 'list') {
      if (items.length === 0) return false;
      this.listed = true;
      await this.emit(pathList(this.ctx, items, this.spec));
      return false;
    }
    if (!this.checked && items.length > 0) {
      this.checked = true;
      if (this.fields.kind === 'paths') checkPaths(this.fields.paths, items, this.spec.declared);
    }
    return true;
  }

  private tableRow(it: unknown): string[] {
    return this.cols!.map((c) => cell(it, c));
  }

  /** Table rows: buffered while the table is small, then drawn as they come. */
  private tableRows(items: unknown[]): string {
    if (!this.table) {
      this.buffered.push(...items);
      if (this.buffered.length <= SMALL_TABLE) return '';
      return this.startTable();
    }
    let out = '';
    for (const it of items) out += this.table.rows([this.tableRow(it)]);
    return out;
  }

  private startTable(): string {
    const items = this.buffered;
    this.buffered = [];
    this.cols = columnsFor(this.ctx, items, this.spec);
    const rows = items.map((it) => this.tableRow(it));
    this.table = new Table(
      this.cols.map((c) => c.header),
      rows.slice(0, SMALL_TABLE),
      tableOptions(this.ctx),
    );
    return this.table.rows(rows);
  }

  private csvRows(items: unknown[]): string {
    let chunk = '';
    if (!this.csv) {
      this.cols = columnsFor(this.ctx, items, this.spec);
      this.csv = new CsvLayout(this.cols, items);
      chunk += csvRow(this.csv.header);
    }
    for (const item of items) chunk += this.csv.row(item);
    return chunk;
  }

  /** Writes one item; resolves when the stream can take more (back-pressure). */
  async write(item: unknown): Promise<void> {
    await this.writeMany([item]);
  }

  /** Writes a batch (a page) as one chunk: one write call instead of one per item. */
  async writeMany(items: unknown[]): Promise<void> {
    if (items.length === 0 || !(await this.gate(items))) return;
    let chunk = '';
    switch (this.format) {
      case 'ndjson': {
        const shown =
          this.fields.kind === 'paths'
            ? items.map((it) => project(it, (this.fields as { paths: string[] }).paths))
            : items;
        // on a jq error, the lines of the items before the one it failed on, as earlier pages' were
        if (this.jq) chunk = await jqEach(this.ctx, shown, (lines) => this.emit(lines));
        else {
          for (const d of shown) chunk += `${writeJson(d)}\n`;
          chunk = jsonForStdout(this.ctx, chunk);
        }
        break;
      }
      case 'json': {
        const shown =
          this.fields.kind === 'paths'
            ? items.map((it) => project(it, (this.fields as { paths: string[] }).paths))
            : items;
        if (this.jq) {
          this.buffered.push(...shown);
          break;
        }
        for (const d of shown) chunk += `${this.count++ === 0 ? '[\n' : ',\n'}${indent(writeJson(d, 2))}`;
        chunk = jsonForStdout(this.ctx, chunk);
        this.count -= shown.length;
        break;
      }
      case 'csv':
        chunk = this.csvRows(items);
        break;
      case 'table':
        chunk = this.tableRows(items);
        break;
    }
    this.count += items.length;
    await this.emit(chunk);
  }

  /**
   * ndjson only: `count` lines already serialised as UTF-8 (each ending in a newline), written as
   * they are; `lines` gives them as strings when a transform (--jq, --fields) or a terminal needs them.
   */
  async writeNdjson(bytes: Buffer, count: number, lines: () => string[]): Promise<void> {
    if (this.format !== 'ndjson') throw new Error('writeNdjson is for ndjson');
    if (count === 0) return;
    if (this.transforms) return this.writeMany(lines().map((l) => parseExactJson(l)));
    this.count += count;
    if (this.ctx.io.stdoutIsTTY) await this.emit(jsonForStdout(this.ctx, lines().join('')));
    else await this.out.write(bytes);
  }

  async end(): Promise<number> {
    // nothing came: the paths are checked against what the endpoint declares, if it does
    if (this.fields.kind === 'paths' && !this.checked) checkPaths(this.fields.paths, [], this.spec.declared);
    if (this.listed) {
      await this.out.end();
      return this.count;
    }
    if (this.fields.kind === 'list' && this.count === 0) await this.emit(pathList(this.ctx, [], this.spec));
    else if (this.format === 'json') {
      if (this.jq) await this.emit(await jqText(this.ctx, writeJson(this.buffered), false));
      else await this.emit(this.count === 0 ? '[]\n' : '\n]\n');
    } else if (this.format === 'csv' && !this.csv) {
      const cols = columnsFor(this.ctx, [], this.spec);
      if (this.spec.columns || this.fields.kind === 'paths') await this.emit(csvRow(new CsvLayout(cols, []).header));
    } else if (this.format === 'table') {
      if (!this.table && this.buffered.length > 0) await this.emit(this.startTable());
      if (this.table) await this.emit(this.table.end());
      else if (this.count === 0) noRows(this.ctx);
    }
    await this.out.end();
    return this.count;
  }
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
