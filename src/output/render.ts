// Renders command results in the -o format: json (objects as returned, unknown properties kept),
// ndjson (one object a line), csv (RFC 4180 with a header row), table (cli-table3).
// stdout gets data only.
import type { Context, OutputFormat } from '../context.js';
import { formatAmount, isExactAmount } from './money.js';
import { stripControl } from './sanitize.js';

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
  if (isExactAmount(value)) return formatAmount(value);
  if (typeof value === 'number' && EPOCH_KEY.test(key) && value > 1e11 && value < 1e14)
    return new Date(value).toISOString();
  if (typeof value === 'string') return stripControl(value);
  if (typeof value === 'object') return stripControl(JSON.stringify(value));
  return String(value);
}

export function columnsFor(ctx: Context, items: unknown[], spec: RenderSpec): Column[] {
  if (ctx.globals.fields) {
    return ctx.globals.fields
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean)
      .map((f) => ({ header: f, path: f }));
  }
  if (spec.columns && spec.columns.length > 0) return spec.columns;
  const keys = new Set<string>();
  for (const item of items.slice(0, 50)) {
    if (item && typeof item === 'object' && !Array.isArray(item)) Object.keys(item).forEach((k) => keys.add(k));
  }
  if (keys.size === 0) return [{ header: 'value', path: '' }];
  return [...keys].map((k) => ({ header: k, path: k }));
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
      return `${JSON.stringify(data, null, 2)}\n`;
    case 'ndjson':
      return Array.isArray(data) ? data.map((d) => `${JSON.stringify(d)}\n`).join('') : `${JSON.stringify(data)}\n`;
    case 'csv': {
      const items = Array.isArray(data) ? data : [data];
      const cols = columnsFor(ctx, items, spec);
      return csvRow(cols.map((c) => c.header)) + items.map((it) => csvRow(cols.map((c) => cell(it, c)))).join('');
    }
    case 'table': {
      const { default: Table } = await import('cli-table3');
      if (!Array.isArray(data) && (spec.vertical ?? true) && data && typeof data === 'object' && !ctx.globals.fields) {
        const t = new Table({ style: { head: [], border: [] } });
        for (const [k, v] of Object.entries(data as Record<string, unknown>)) t.push({ [k]: cellText(v, k) });
        return `${t.toString()}\n`;
      }
      const items = Array.isArray(data) ? data : [data];
      if (items.length === 0) return '';
      const cols = columnsFor(ctx, items, spec);
      const t = new Table({ head: cols.map((c) => c.header), style: { head: ctx.color ? ['cyan'] : [], border: [] } });
      for (const it of items) t.push(cols.map((c) => cell(it, c)));
      return `${t.toString()}\n`;
    }
  }
}

/** Streams items as they come: ndjson and csv line by line; json as one array; table at the end. */
export class StreamWriter {
  private count = 0;
  private buffered: unknown[] = [];
  private cols?: Column[];

  constructor(
    private readonly ctx: Context,
    private readonly format: OutputFormat,
    private readonly spec: RenderSpec = {},
  ) {}

  /** Writes one item; resolves when the stream can take more (back-pressure). */
  async write(item: unknown): Promise<void> {
    const out = this.ctx.io.stdout;
    let chunk: string;
    switch (this.format) {
      case 'ndjson':
        chunk = `${JSON.stringify(item)}\n`;
        break;
      case 'json':
        chunk = `${this.count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(item, null, 2))}`;
        break;
      case 'csv':
        if (!this.cols) {
          this.cols = columnsFor(this.ctx, [item], this.spec);
          out.write(csvRow(this.cols.map((c) => c.header)));
        }
        chunk = csvRow(this.cols.map((c) => cell(item, c)));
        break;
      case 'table':
        this.buffered.push(item);
        this.count++;
        return;
    }
    this.count++;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }

  /** Writes a batch (a page) as one chunk for ndjson and csv: one write call instead of one per item. */
  async writeMany(items: unknown[]): Promise<void> {
    if (this.format !== 'ndjson' && this.format !== 'csv') {
      for (const item of items) await this.write(item);
      return;
    }
    if (items.length === 0) return;
    const out = this.ctx.io.stdout;
    let chunk = '';
    if (this.format === 'ndjson') {
      for (const item of items) chunk += `${JSON.stringify(item)}\n`;
    } else {
      if (!this.cols) {
        this.cols = columnsFor(this.ctx, [items[0]], this.spec);
        chunk += csvRow(this.cols.map((c) => c.header));
      }
      for (const item of items) chunk += csvRow(this.cols.map((c) => cell(item, c)));
    }
    this.count += items.length;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }

  /** ndjson only: lines already serialised (each ending in a newline), written as one chunk. */
  async writeLines(lines: string[]): Promise<void> {
    if (this.format !== 'ndjson') throw new Error('writeLines is for ndjson');
    if (lines.length === 0) return;
    this.count += lines.length;
    const out = this.ctx.io.stdout;
    if (!out.write(lines.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
  }

  async end(): Promise<number> {
    const out = this.ctx.io.stdout;
    if (this.format === 'json') out.write(this.count === 0 ? '[]\n' : '\n]\n');
    if (this.format === 'csv' && !this.cols) {
      const cols = columnsFor(this.ctx, [], this.spec);
      if (this.spec.columns || this.ctx.globals.fields) out.write(csvRow(cols.map((c) => c.header)));
    }
    if (this.format === 'table')
      out.write(await renderToString(this.ctx, 'table', this.buffered, { ...this.spec, vertical: false }));
    return this.count;
  }
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
