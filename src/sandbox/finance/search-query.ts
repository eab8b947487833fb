// The free-text query language of POST /api/v1/search (spec 2.7): #tags, amount spans, date spans
// and category names, with keywords in the user's locale (en_US, sv_SE); every word narrows the
// result (AND; there is no OR). Words that are none of these match the description.
import { CATEGORIES, categoryName, type Category } from '../categories.js';
import { bucketOf, DAY_MS, isoWeek, startOfDay } from './dates.js';
import { parseDecimal } from '../../contract/decimal.js';
import type { Dec } from '../../contract/decimal.js';

export interface ParsedQuery {
  tags: string[];
  /** Absolute amount bounds, inclusive. */
  amountMin?: Dec;
  amountMax?: Dec;
  /** Booked date bounds: [from, to) in epoch ms. */
  dateFrom?: number;
  dateTo?: number;
  weekdays?: boolean;
  weekends?: boolean;
  categories: Category[];
  words: string[];
}

type Locale = 'en_US' | 'sv_SE';

const AMOUNT_WORDS: Record<Locale, Array<[string[], 'over' | 'under' | 'around']>> = {
  en_US: [
    [['more', 'than'], 'over'],
    [['less', 'than'], 'under'],
    [['over'], 'over'],
    [['above'], 'over'],
    [['under'], 'under'],
    [['below'], 'under'],
    [['around'], 'around'],
    [['about'], 'around'],
  ],
  sv_SE: [
    [['mer', 'än'], 'over'],
    [['mindre', 'än'], 'under'],
    [['över'], 'over'],
    [['under'], 'under'],
    [['runt'], 'around'],
    [['cirka'], 'around'],
    [['ungefär'], 'around'],
  ],
};

type DateSpan =
  | 'weekdays'
  | 'weekends'
  | 'today'
  | 'yesterday'
  | 'this-week'
  | 'this-month'
  | 'this-year'
  | 'last-week'
  | 'last-month'
  | 'last-year'
  | 'week';
const DATE_WORDS: Record<Locale, Array<[string[], DateSpan]>> = {
  en_US: [
    [['weekdays'], 'weekdays'],
    [['weekends'], 'weekends'],
    [['today'], 'today'],
    [['yesterday'], 'yesterday'],
    [['this', 'week'], 'this-week'],
    [['this', 'month'], 'this-month'],
    [['this', 'year'], 'this-year'],
    [['last', 'week'], 'last-week'],
    [['last', 'month'], 'last-month'],
    [['last', 'year'], 'last-year'],
    [['week'], 'week'],
  ],
  sv_SE: [
    [['vardagar'], 'weekdays'],
    [['helger'], 'weekends'],
    [['helgen'], 'weekends'],
    [['idag'], 'today'],
    [['i', 'dag'], 'today'],
    [['igår'], 'yesterday'],
    [['i', 'går'], 'yesterday'],
    [['den', 'här', 'veckan'], 'this-week'],
    [['denna', 'vecka'], 'this-week'],
    [['den', 'här', 'månaden'], 'this-month'],
    [['denna', 'månad'], 'this-month'],
    [['i', 'år'], 'this-year'],
    [['detta', 'år'], 'this-year'],
    [['förra', 'veckan'], 'last-week'],
    [['förra', 'månaden'], 'last-month'],
    [['förra', 'året'], 'last-year'],
    [['i', 'fjol'], 'last-year'],
    [['vecka'], 'week'],
  ],
};

const CURRENCY_WORDS = new Set(['kr', 'kronor', 'sek', 'eur', 'euro', 'usd', 'gbp', 'nok', 'dkk', '€', '$', '£']);

function amountOf(word: string | undefined): Dec | undefined {
  if (!word || !/^\d+([.,]\d+)?$/.test(word)) return undefined;
  const p = parseDecimal(word.replace(',', '.'));
  return { u: p.unscaledValue, s: p.scale };
}

export function parseSearchQuery(query: string, locale: string, now: number): ParsedQuery {
  const loc: Locale = locale.startsWith('sv') ? 'sv_SE' : 'en_US';
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  const q: ParsedQuery = { tags: [], categories: [], words: [] };
  const startsWith = (i: number, seq: string[]) => seq.every((w, k) => tokens[i + k] === w);
  const narrow = (from: number, to: number) => {
    q.dateFrom = Math.max(q.dateFrom ?? from, from);
    q.dateTo = Math.min(q.dateTo ?? to, to);
  };
  const today = startOfDay(now);
  // category names of the locale (and plural/singular variants), longest first
  const names: Array<[string[], Category]> = [];
  for (const c of CATEGORIES) {
    const n = categoryName(c, loc).toLowerCase();
    for (const v of new Set([n, n.replace(/s$/, ''), `${n}s`])) names.push([v.split(/\s+/), c]);
  }
  names.sort((a, b) => b[0].length - a[0].length);

  let i = 0;
  outer: while (i < tokens.length) {
    const tok = tokens[i]!;
    if (tok.startsWith('#') && tok.length > 1) {
      q.tags.push(tok.slice(1));
      i++;
      continue;
    }
    for (const [seq, kind] of AMOUNT_WORDS[loc]) {
      const amount = amountOf(tokens[i + seq.length]);
      if (!startsWith(i, seq) || !amount) continue;
      if (kind === 'over') q.amountMin = amount;
      else if (kind === 'under') q.amountMax = amount;
      else {
        // around: within 10% either way
        q.amountMin = { u: amount.u * 9n, s: amount.s + 1 };
        q.amountMax = { u: amount.u * 11n, s: amount.s + 1 };
      }
      i += seq.length + 1;
      if (CURRENCY_WORDS.has(tokens[i] ?? '')) i++;
      continue outer;
    }
    for (const [seq, span] of DATE_WORDS[loc]) {
      if (!startsWith(i, seq)) continue;
      let used = seq.length;
      switch (span) {
        case 'weekdays':
          q.weekdays = true;
          break;
        case 'weekends':
          q.weekends = true;
          break;
        case 'today':
          narrow(today, today + DAY_MS);
          break;
        case 'yesterday':
          narrow(today - DAY_MS, today);
          break;
        case 'this-week':
        case 'this-month':
        case 'this-year': {
          const b = bucketOf(span === 'this-week' ? 'WEEKLY' : span === 'this-month' ? 'MONTHLY' : 'YEARLY', now);
          narrow(b.start, b.end);
          break;
        }
        case 'last-week':
        case 'last-month':
        case 'last-year': {
          const res = span === 'last-week' ? 'WEEKLY' : span === 'last-month' ? 'MONTHLY' : 'YEARLY';
          const b = bucketOf(res, bucketOf(res, now).start - 1);
          narrow(b.start, b.end);
          break;
        }
        case 'week': {
          const n = tokens[i + 1]?.replace(/^#/, '');
          if (!n || !/^\d{1,2}$/.test(n) || Number(n) < 1 || Number(n) > 53) continue;
          // week N of the current ISO week-numbering year
          const year = isoWeek(now).year;
          const jan4 = Date.UTC(year, 0, 4);
          const monday1 = isoWeek(jan4).monday;
          const start = monday1 + (Number(n) - 1) * 7 * DAY_MS;
          narrow(start, start + 7 * DAY_MS);
          used = 2;
          break;
        }
      }
      i += used;
      continue outer;
    }
    for (const [seq, cat] of names) {
      if (!startsWith(i, seq)) continue;
      if (!q.categories.includes(cat)) q.categories.push(cat);
      i += seq.length;
      continue outer;
    }
    q.words.push(tok);
    i++;
  }
  return q;
}
