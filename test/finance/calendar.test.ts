import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientToken, raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await startTestSandbox();
  // the reference's calendar endpoints work with a user token only
  auth = { authorization: `Bearer ${(await userWithToken(t.sandbox, ['calendar:read'])).token}` };
});
afterAll(() => t.close());

const get = (path: string) => raw(t.sandbox.baseUrl, 'GET', path, { headers: auth });
const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /api/v1/calendar/periods/{period}', () => {
  test('MONTHLY_ADJUSTED: from the salary day (25th) of the month before to the day before this one', async () => {
    // 2024-01-25 is a Thursday, so 2024-02 runs 25 January to 24 February (the 25th is a Sunday: 23rd)
    const r = await get('/api/v1/calendar/periods/2024-02');
    expect(r.status).toBe(200);
    const [p] = r.json();
    expect(p.name).toBe('2024-02');
    expect(p.resolution).toBe('MONTHLY_ADJUSTED');
    expect(iso(p.startDate)).toBe('2024-01-25T00:00:00.000Z');
    expect(iso(p.endDate)).toBe('2024-02-22T23:59:59.000Z');
  });

  test('a salary day on a Saturday moves to the Friday before', async () => {
    // 2024-05-25 is a Saturday: the period 2024-06 starts on Friday 24 May, and 2024-05 ends the 23rd
    const june = (await get('/api/v1/calendar/periods/2024-06')).json()[0];
    expect(iso(june.startDate)).toBe('2024-05-24T00:00:00.000Z');
    const may = (await get('/api/v1/calendar/periods/2024-05')).json()[0];
    expect(iso(may.endDate)).toBe('2024-05-23T23:59:59.000Z');
    // and a date on that Friday already belongs to the next period
    expect((await get('/api/v1/calendar/periods/2024-05-24')).json()[0].name).toBe('2024-06');
    expect((await get('/api/v1/calendar/periods/2024-05-23')).json()[0].name).toBe('2024-05');
  });

  test('holidays count as non-business days: Midsummer Eve and Christmas', async () => {
    // 2023-06-25 is a Sunday, Friday 23 June is Midsummer Eve: the salary comes on Thursday 22 June
    expect(iso((await get('/api/v1/calendar/periods/2023-07')).json()[0].startDate)).toBe('2023-06-22T00:00:00.000Z');
    // 2023-12-25 is Christmas Day (Monday), the 24th a Sunday and Christmas Eve: Friday 22 December
    expect(iso((await get('/api/v1/calendar/periods/2024-01')).json()[0].startDate)).toBe('2023-12-22T00:00:00.000Z');
  });

  test('year boundary: a late-December date belongs to January of the next year', async () => {
    const r = (await get('/api/v1/calendar/periods/2024-12-27')).json();
    expect(r).toHaveLength(1);
    expect(r[0].name).toBe('2025-01');
    expect(iso(r[0].startDate)).toBe('2024-12-23T00:00:00.000Z');
    // 2025-01-25 is a Saturday
    expect(iso(r[0].endDate)).toBe('2025-01-23T23:59:59.000Z');
  });

  test('YYYY gives the twelve periods of the year, contiguous', async () => {
    const r = (await get('/api/v1/calendar/periods/2025')).json();
    expect(r.map((p: { name: string }) => p.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`),
    );
    for (let i = 1; i < r.length; i++) expect(r[i].startDate).toBe(r[i - 1].endDate + 1000);
  });

  test('resolution=MONTHLY gives calendar months', async () => {
    const [p] = (await get('/api/v1/calendar/periods/2016-05?resolution=MONTHLY')).json();
    // the Swagger's own example
    expect(p).toEqual({ name: '2016-05', resolution: 'MONTHLY', startDate: 1462060800000, endDate: 1464739199000 });
  });

  test('400 with a string body for a bad format', async () => {
    for (const bad of ['2024-13', '2024-02-30', '24-01', 'abc', '2024-1-5']) {
      const r = await get(`/api/v1/calendar/periods/${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(r.text).toMatch(/period/);
    }
  });
});

describe('GET /api/v1/calendar/periods?period_gte&period_lte', () => {
  test('every period from the one holding period_gte to the one holding period_lte', async () => {
    const r = await get('/api/v1/calendar/periods?period_gte=2023-12-10&period_lte=2024-03-26');
    expect(r.status).toBe(200);
    // 2024-03-25 is a Monday, so the 26th is in 2024-04
    expect(r.json().map((p: { name: string }) => p.name)).toEqual([
      '2023-12',
      '2024-01',
      '2024-02',
      '2024-03',
      '2024-04',
    ]);
  });

  test('at most 10 years: exactly ten is fine, a day more is 400', async () => {
    const ok = await get('/api/v1/calendar/periods?period_gte=2015-03-10&period_lte=2025-03-10&resolution=MONTHLY');
    expect(ok.status).toBe(200);
    expect(ok.json()).toHaveLength(121);
    const over = await get('/api/v1/calendar/periods?period_gte=2015-03-10&period_lte=2025-03-11');
    expect(over.status).toBe(400);
    expect(over.text).toMatch(/10 years/);
  });

  test('400 string bodies: reversed range, bad format, missing parameter', async () => {
    const reversed = await get('/api/v1/calendar/periods?period_gte=2024-05-01&period_lte=2024-04-01');
    expect(reversed.status).toBe(400);
    expect(reversed.text).toBe('period_gte is after period_lte');
    const bad = await get('/api/v1/calendar/periods?period_gte=2024/05/01&period_lte=2024-06-01');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/period_gte must be a date in the format YYYY-MM-DD/);
    const missing = await get('/api/v1/calendar/periods?period_gte=2024-05-01');
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/period_lte is required/);
  });

  test('401 without a token, 403 without calendar:read or with a client token', async () => {
    expect((await raw(t.sandbox.baseUrl, 'GET', '/api/v1/calendar/periods/2024')).status).toBe(401);
    const other = (await userWithToken(t.sandbox, ['user:read'])).token;
    const client = await clientToken(t.sandbox, ['calendar:read']);
    for (const token of [other, client]) {
      expect(
        (
          await raw(t.sandbox.baseUrl, 'GET', '/api/v1/calendar/periods/2024', {
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(403);
    }
  });
});
