import { describe, expect } from 'vitest';
import { newCmdSearch } from '../../src/commands/search.js';
import { cliCases, optionCases, useSandbox } from '../helpers/commands.js';

const sb = useSandbox({ months: 3 });

describe('search: flags', () => {
  optionCases('search', newCmdSearch, [
    {
      name: 'the words are one query',
      args: ['coffee', 'this', 'month'],
      options: { queryString: 'coffee this month' },
    },
    {
      name: 'a limit and an offset',
      args: ['coffee', '--limit', '10', '--offset', '5'],
      options: { limit: 10, offset: 5 },
    },
    {
      name: 'a limit over 1000',
      args: ['x', '--limit', '5000'],
      code: 2,
      stderr: '--limit must be a whole number from 1 to 1000, got 5000',
    },
    { name: 'no words', args: [], code: 2, stderr: "missing required argument 'query'" },
  ]);
});

describe('search: output', () => {
  cliCases('search', () => sb.env, [
    {
      name: 'json is the whole SearchResponse',
      args: ['coffee', '-o', 'json'],
      code: 0,
      stdout: (out) => {
        const r = JSON.parse(out);
        expect(r.count).toBeGreaterThan(0);
        expect(r.results[0].transaction.description).toMatch(/coffee/i);
      },
    },
    {
      name: 'a table of the transactions with exact amounts, and the count on stderr',
      args: ['coffee', '--limit', '2', '-o', 'table'],
      code: 0,
      stdout: /-\d+\.\d{2} SEK/,
      // the net covers the hits in the user's currency (the reference), which a page's rows do not
      // tell: the wire's number, said so, with no currency taken from the rows
      stderr:
        /^2 of \d+ matching transactions; net of those in the user's currency -\d+(\.\d+)? \(more: --offset 2\)$/m,
    },
    {
      // -q hides notices, not the one sign that the rows on stdout are a part of the hits
      name: '-q still says that more hits exist than were printed, and the offset of the next',
      args: ['coffee', '--limit', '2', '-q', '-o', 'ndjson'],
      code: 0,
      stdout: (out: string) => expect(out.trim().split('\n')).toHaveLength(2),
      stderr: /^2 of \d+ matching transactions; .* \(more: --offset 2\)\n$/,
    },
    {
      name: '-q and every hit printed: nothing on stderr',
      args: ['coffee', '--limit', '1000', '-q', '-o', 'ndjson'],
      code: 0,
      stderr: '',
    },
    {
      name: 'csv of no match still has the currency column (columns do not move on an empty result)',
      args: ['zzzqqq', '-o', 'csv'],
      code: 0,
      stdout: (out) => expect(out.split('\r\n')[0]).toBe('date,description,amount,currency,category,account,id'),
    },
    {
      name: 'ndjson: one transaction a line',
      args: ['coffee', '--limit', '3', '-o', 'ndjson'],
      code: 0,
      stdout: (out) =>
        expect(
          out
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l).description),
        ).toHaveLength(3),
    },
  ]);
});
