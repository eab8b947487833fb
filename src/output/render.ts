// Renders command results in the -o format: json (objects as returned, unknown properties kept),
// ndjson (one object a line), csv (RFC 4180 with a header row), table (cli-table3).
// stdout gets data only.
import type { Context, OutputFormat } from '../context.js';
import { ExactNumber, writeJson } from '../contract/exact-json.js';
import { formatAmount, isExactAmount } from './money.js';
import { stripControl } from './sanitize.js';
import { SMALL_TABLE, StreamingTable } from './table.js';
import { terminalJson } from './terminal.js';

export interface Column {
  header: string;
  /** Dotted path into the item. */
  path: string;
  format?: (value: unknown, item: unknown) => string;
}

export interface RenderSpec {
  /** Default columns for table and csv; --fields overrides. */
  columns?: Column[];
  /** Table only: a single object is shown as key/value rows. */
  vertical?: boolean;
}

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const EPOCH_KEY = /(date|updated|created|expiry|expires|timestamp|time)$/i;

/** A cell as a person reads it: exact amounts with currency, epoch ms as ISO, no control chars. */
export function cellText(value: unknown, key = ''): string {
  if (value === undefined || value === null) return '';
  // a JSON number a double could not hold: shown with the digits the service sent
  if (value instanceof ExactNumber) return value.text;
  if (isExactAmount(value)) return formatAmount(value);
  if (typeof value === 'number' && EPOCH_KEY.test(key) && value > 1e11 && value < 1e14)
    return new Date(value).toISOString();
  if (typeof value === 'string') return stripControl(value);
  if (typeof value === 'object') return stripControl(writeJson(value));
  return String(value);
}

export function columnsFor(ctx: Context, items: unknown[], spec: RenderSpec): Column[] {
  if (ctx.globals.fields) {
    return ctx.globals.fields
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean)
      .map((f) => ({ header: stripControl(f), path: f }));
  }
  if (spec.columns && spec.columns.length > 0) return spec.columns;
  const keys = new Set<string>();
  for (const item of items.slice(0, 50)) {
    if (item && typeof item === 'object' && !Array.isArray(item)) Object.keys(item).forEach((k) => keys.add(k));
  }
  if (keys.size === 0) return [{ header: 'value', path: '' }];
  // keys come from the network: a header is text for a terminal like any cell
  return [...keys].map((k) => ({ header: stripControl(k), path: k }));
}

/** JSON text for stdout: on a terminal, C1 controls escaped too (the JSON stays the same data). */
function jsonText(ctx: Context, json: string): string {
  return ctx.io.stdoutIsTTY ? terminalJson(json) : json;
}

function headStyle(ctx: Context): (s: string) => string {
  return ctx.color ? (s) => `\x1b[36m${s}\x1b[39m` : (s) => s;
}

function cell(item: unknown, col: Column): string {
  const v = col.path === '' ? item : getPath(item, col.path);
  if (col.format) return stripControl(col.format(v, item));
  return cellText(v, col.path.split('.').pop());
}

export function csvEscape(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: string[]): string {
  return `${values.map(csvEscape).join(',')}\r\n`;
}

export async function render(ctx: Context, data: unknown, spec: RenderSpec = {}): Promise<void> {
  const format = await ctx.outputFormat();
  if (format === 'table' && Array.isArray(data) && data.length > SMALL_TABLE) {
    // a long table goes out row block by row block, through back-pressure (and Ctrl-C)
    const w = new StreamWriter(ctx, 'table', spec);
    for (let i = 0; i < data.length; i += 1000) await w.writeMany(data.slice(i, i + 1000));
    await w.end();
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
  switch (format) {
    case 'json':
      return jsonText(ctx, `${writeJson(data, 2)}\n`);
    case 'ndjson':
      return jsonText(
        ctx,
        Array.isArray(data) ? data.map((d) => `${writeJson(d)}\n`).join('') : `${writeJson(data)}\n`,
      );
    case 'csv': {
      const items = Array.isArray(data) ? data : [data];
      const cols = columnsFor(ctx, items, spec);
      return csvRow(cols.map((c) => c.header)) + items.map((it) => csvRow(cols.map((c) => cell(it, c)))).join('');
    }
    case 'table':
      return tableText(ctx, data, spec);
  }
}

async function tableText(ctx: Context, data: unknown, spec: RenderSpec): Promise<string> {
  if (!Array.isArray(data) && (spec.vertical ?? true) && data && typeof data === 'object' && !ctx.globals.fields) {
    const entries = Object.entries(data as Record<string, unknown>);
    if (entries.length > SMALL_TABLE) {
      const rows = entries.map(([k, v]) => [stripControl(k), cellText(v, k)]);
      const t = new StreamingTable(rows[0]!, rows.slice(1, SMALL_TABLE));
      return t.rows(rows.slice(1)) + t.end();
    }
    const { default: Table } = await import('cli-table3');
    const t = new Table({ style: { head: [], border: [] } });
    for (const [k, v] of entries) t.push({ [stripControl(k)]: cellText(v, k) });
    return `${t.toString()}\n`;
  }
  const items = Array.isArray(data) ? data : [data];
  if (items.length === 0) return '';
  const cols = columnsFor(ctx, items, spec);
  if (items.length > SMALL_TABLE) {
    const rows = items.map((it) => cols.map((c) => cell(it, c)));
    const t = new StreamingTable(
      cols.map((c) => c.header),
      rows.slice(0, SMALL_TABLE),
      headStyle(ctx),
    );
    return t.rows(rows) + t.end();
  }
  const { default: Table } = await import('cli-table3');
  const t = new Table({ head: cols.map((c) => c.header), style: { head: ctx.color ? ['cyan'] : [], border: [] } });
  for (const it of items) t.push(cols.map((c) => cell(it, c)));
  return `${t.toString()}\n`;
}

/**
 * Streams items as they come: ndjson and csv line by line; json as one array; a table is drawn by
 * cli-table3 when it stays small, and row by row (linear, through back-pressure) once it grows.
 */
export class StreamWriter {
  private count = 0;
  private buffered: unknown[] = [];
  private cols?: Column[];
  private table?: StreamingTable;

  constructor(
    private readonly ctx: Context,
    private readonly format: OutputFormat,
    private readonly spec: RenderSpec = {},
  ) {}

  private async out(chunk: string): Promise<void> {
    const out = this.ctx.io.stdout;
    if (chunk !== '' && !out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }

  /** Table rows: buffered while the table is small, then drawn as they come. */
  private tableRows(items: unknown[]): string {
    if (!this.table) {
      this.buffered.push(...items);
      if (this.buffered.length <= SMALL_TABLE) return '';
      this.cols = columnsFor(this.ctx, this.buffered, this.spec);
      items = this.buffered;
      this.buffered = [];
      const rows = items.map((it) => this.cols!.map((c) => cell(it, c)));
      this.table = new StreamingTable(
        this.cols.map((c) => c.header),
        rows,
        headStyle(this.ctx),
      );
      return this.table.rows(rows);
    }
    return this.table.rows(items.map((it) => this.cols!.map((c) => cell(it, c))));
  }

  /** Writes one item; resolves when the stream can take more (back-pressure). */
  async write(item: unknown): Promise<void> {
    let chunk: string;
    switch (this.format) {
      case 'ndjson':
        chunk = jsonText(this.ctx, `${writeJson(item)}\n`);
        break;
      case 'json':
        chunk = jsonText(this.ctx, `${this.count === 0 ? '[\n' : ',\n'}${indent(writeJson(item, 2))}`);
        break;
      case 'csv':
        chunk = '';
        if (!this.cols) {
          this.cols = columnsFor(this.ctx, [item], this.spec);
          chunk = csvRow(this.cols.map((c) => c.header));
        }
        chunk += csvRow(this.cols.map((c) => cell(item, c)));
        break;
      case 'table':
        chunk = this.tableRows([item]);
        break;
    }
    this.count++;
    await this.out(chunk);
  }

  /** Writes a batch (a page) as one chunk: one write call instead of one per item. */
  async writeMany(items: unknown[]): Promise<void> {
    if (this.format === 'json') {
      for (const item of items) await this.write(item);
      return;
    }
    if (items.length === 0) return;
    let chunk = '';
    if (this.format === 'ndjson') {
      for (const item of items) chunk += `${writeJson(item)}\n`;
      chunk = jsonText(this.ctx, chunk);
    } else if (this.format === 'csv') {
      if (!this.cols) {
        this.cols = columnsFor(this.ctx, [items[0]], this.spec);
        chunk += csvRow(this.cols.map((c) => c.header));
      }
      for (const item of items) chunk += csvRow(this.cols.map((c) => cell(item, c)));
    } else chunk = this.tableRows(items);
    this.count += items.length;
    await this.out(chunk);
  }

  /** ndjson only: lines already serialised (each ending in a newline), written as one chunk. */
  async writeLines(lines: string[]): Promise<void> {
    if (this.format !== 'ndjson') throw new Error('writeLines is for ndjson');
    if (lines.length === 0) return;
    this.count += lines.length;
    await this.out(jsonText(this.ctx, lines.join('')));
  }

  async end(): Promise<number> {
    const out = this.ctx.io.stdout;
    if (this.format === 'json') out.write(this.count === 0 ? '[]\n' : '\n]\n');
    if (this.format === 'csv' && !this.cols) {
      const cols = columnsFor(this.ctx, [], this.spec);
      if (this.spec.columns || this.ctx.globals.fields) out.write(csvRow(cols.map((c) => c.header)));
    }
    if (this.format === 'table') {
      if (this.table) await this.out(this.table.end());
      else out.write(await renderToString(this.ctx, 'table', this.buffered, { ...this.spec, vertical: false }));
    }
    return this.count;
  }
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
