import { describe, expect, test } from 'vitest';
import { Context } from '../../src/context.js';
import { testIO } from '../../src/io.js';
import { render, StreamWriter } from '../../src/output/render.js';

function ctx(output: string, extra: Record<string, unknown> = {}) {
  const io = testIO({ stdoutIsTTY: output === 'table' });
  const c = new Context(io);
  c.globals = { output, ...extra };
  return { c, io };
}

const items = [
  {
    id: 'a',
    amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-5' } },
    descriptions: { display: 'Coffee, "large"' },
    dates: { booked: '2026-11-01' },
    unknownProp: { x: 1 },
  },
  {
    id: 'b',
    amount: { currencyCode: 'EUR', value: { scale: '0', unscaledValue: '12' } },
    descriptions: { display: 'line\nbreak \x1b[31mred\x1b[0m' },
    dates: { booked: '2026-11-02' },
  },
];
const columns = [
  { header: 'id', path: 'id' },
  { header: 'amount', path: 'amount' },
  { header: 'description', path: 'descriptions.display' },
];

describe('output formats', () => {
  test('json keeps the objects as returned, unknown properties included', async () => {
    const { c, io } = ctx('json');
    await render(c, items, { columns });
    expect(JSON.parse(io.out())).toEqual(items);
  });

  test('ndjson: one object a line', async () => {
    const { c, io } = ctx('ndjson');
    await render(c, items, { columns });
    expect(
      io
        .out()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual(items);
  });

  test('csv: RFC 4180 with a header row, exact amounts, control characters stripped', async () => {
    const { c, io } = ctx('csv');
    await render(c, items, { columns });
    // the amount a plain decimal in the currency's minor units, the currency in its own column (issue 18)
    expect(io.out()).toBe(
      'id,amount,currency,description\r\na,-0.05,SEK,"Coffee, ""large"""\r\nb,12.00,EUR,"line\nbreak red"\r\n',
    );
  });

  test('--fields picks dotted paths', async () => {
    const { c, io } = ctx('csv', { fields: 'id,dates.booked,amount.value.unscaledValue' });
    await render(c, items, { columns });
    expect(io.out()).toBe('id,dates.booked,amount.value.unscaledValue\r\na,2026-11-01,-5\r\nb,2026-11-02,12\r\n');
  });

  test('table: amounts exact with currency, no escape sequences from bank text', async () => {
    const { c, io } = ctx('table');
    await render(c, items, { columns });
    const out = io.out();
    expect(out).toContain('-0.05 SEK');
    expect(out).toContain('12.00 EUR');
    expect(out).not.toContain('\x1b[31m');
  });

  test("table headers keep a key's words apart (PROVIDER NAME, not PROVIDERNAME); csv keeps the keys", async () => {
    const rows = [{ providerName: 'Demo Bank', statusUpdated: '2026-11-01', id: 'c1' }];
    const { c, io } = ctx('table');
    await render(c, rows, {});
    const head = io
      .out()
      .split('\n')[0]!
      .replace(/\x1b\[[0-9;]*m/g, '');
    expect(head.trim().split(/\s{2,}/)).toEqual(['PROVIDER NAME', 'STATUS UPDATED', 'ID']);
    const csv = ctx('csv');
    await render(csv.c, rows, {});
    expect(csv.io.out().split('\r\n')[0]).toBe('providerName,statusUpdated,id');
  });

  test('epoch milliseconds are ISO timestamps by their key: refreshed, lastModified, a period start and end', async () => {
    const ms = 1796049549689;
    const iso = new Date(ms).toISOString();
    const rows = [
      { refreshed: ms, lastModified: ms, start: ms, end: ms, createdTime: ms, dateArchived: ms, count: ms },
    ];
    const { c, io } = ctx('csv', { fields: 'refreshed,lastModified,start,end,createdTime,dateArchived,count' });
    await render(c, rows, {});
    // a count is a number whatever its size
    expect(io.out().split('\r\n')[1]).toBe([iso, iso, iso, iso, iso, iso, String(ms)].join(','));
  });

  test('streaming json is one valid array, also when empty', async () => {
    const { c, io } = ctx('json');
    const w = new StreamWriter(c, 'json');
    for (const it of items) await w.write(it);
    expect(await w.end()).toBe(2);
    expect(JSON.parse(io.out())).toEqual(items);
    const e = ctx('json');
    await new StreamWriter(e.c, 'json').end();
    expect(JSON.parse(e.io.out())).toEqual([]);
  });
});

describe('notices and warnings', () => {
  test('are one line each: a line break from the network in them is a space', () => {
    const { c, io } = ctx('json');
    c.notice('created credentials c1 for Bank\nerror: fake line');
    c.warn('provider said:\r\nwarning\u2028more');
    expect(io.err()).toBe('created credentials c1 for Bank error: fake line\nwarning: provider said: warning more\n');
  });
});
