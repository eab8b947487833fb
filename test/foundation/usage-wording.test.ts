// commander's own usage errors read like bankctl's: one line that names the flag (its long form),
// says what it takes and what was given, exit 2, no stack; ranges are worded one way for every flag.
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

const cases: Array<[string[], string]> = [
  // a required option left out (commander: "required option '--market <code>' not specified")
  [['balance-refresh', 'create'], 'error: --account is required (the account to refresh)'],
  // ... one with a closed list says the list
  [
    ['statistics', 'query', '--type', 'expenses-by-category'],
    'error: --resolution is required (one of MONTHLY, MONTHLY_ADJUSTED, YEARLY, WEEKLY, DAILY)',
  ],
  // an option without its value (commander: "option '--account <id>' argument missing")
  [['balance-refresh', 'create', '--account'], 'error: --account needs a value (the account to refresh)'],
  // a value outside .choices() (commander: "option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are ...")
  [['auth', 'status', '-o', 'xml'], 'error: --output must be one of table, json, ndjson, csv, got "xml"'],
  [
    ['statistics', 'query', '--type', 'x', '--resolution', 'HOURLY'],
    'error: --resolution must be one of MONTHLY, MONTHLY_ADJUSTED, YEARLY, WEEKLY, DAILY, got "HOURLY"',
  ],
  // the same range wording for --page-size and --limit, over and under, number or not
  [['transactions', 'list', '--page-size', '500'], 'error: --page-size must be a whole number from 1 to 100, got 500'],
  [
    ['transactions', 'list', '--page-size', 'abc'],
    'error: --page-size must be a whole number from 1 to 100, got "abc"',
  ],
  [['transactions', 'list', '--limit', '0'], 'error: --limit must be a whole number from 1 to 100000000, got 0'],
];

describe('usage errors of options', () => {
  test.each(cases)('bankctl %j', async (args, line) => {
    const r = await spawnCli(args, { env: { BANKCTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `${line}\n`]);
  });
});
