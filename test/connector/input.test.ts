// Input formats of `connector push`: json, ndjson, csv; malformed records reported as FILE:LINE with
// nothing sent; --skip-invalid; --dry-run.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, ndjsonLine, sum, userWithAccounts } from './helpers.js';

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await startTestSandbox();
  dir = tempDir();
  await userWithAccounts(env, 'fmt', 2);
});
afterAll(async () => env.close());

const stored = (prefix: string) =>
  [...env.sandbox.store.transactions.values()].filter((t) => t.externalId!.startsWith(prefix));
const push = (args: string[]) => runCli(['connector', 'push', '--user', 'fmt', ...args], { env: env.env });

function jsonContainer(txs: ReturnType<typeof makeTxs>, balances: Record<string, string>, type = 'BATCH'): string {
  const accounts = [...new Set(txs.map((t) => t.account))];
  const lines = ['{', `  "type": "${type}",`, '  "transactionAccounts": ['];
  accounts.forEach((a, ai) => {
    lines.push(
      '    {',
      `      "externalId": "${a}",`,
      `      "balance": ${balances[a]},`,
      '      "reservedAmount": 12.30,',
      '      "transactions": [',
    );
    const mine = txs.filter((t) => t.account === a);
    mine.forEach((t, i) =>
      lines.push(`        ${ndjsonLine({ ...t, account: undefined as never })}${i < mine.length - 1 ? ',' : ''}`),
    );
    lines.push('      ]', `    }${ai < accounts.length - 1 ? ',' : ''}`);
  });
  lines.push('  ]', '}');
  return lines.join('\n').replace(/"account":null,?/g, '');
}

describe('formats', () => {
  test('json: a CreateTransactionAccountContainer is cut into chunks of 2500 that keep each balance and reservedAmount exact', async () => {
    const txs = makeTxs(3000, { accounts: 2, prefix: 'json' });
    const file = join(dir, 'in.json');
    writeFileSync(file, jsonContainer(txs, { 'acc-0': '1234567890123456.78', 'acc-1': '-5.10' }));
    const report = join(dir, 'json.report.json');
    const r = await push(['--file', file, '--report', report]);
    expect(r.code, r.stderr).toBe(0);
    expect(
      JSON.parse(readFileSync(report, 'utf8')).chunks.map((c: { transactions: number }) => c.transactions),
    ).toEqual([2500, 500]);
    expect(stored('json-')).toHaveLength(3000);
    const accs = [...env.sandbox.store.accounts.values()].filter(
      (a) => a.userId === env.sandbox.store.userByExternalId('fmt')!.id,
    );
    // both went exactly: the service stores the balance less the reservedAmount (the reference's rule)
    expect(accs.find((a) => a.externalId === 'acc-0')!.balance).toBe('1234567890123444.48');
    expect(accs.find((a) => a.externalId === 'acc-1')!.balance).toBe('-17.40');
    // amounts arrive with the digits they were written with
    expect(sum(stored('json-').map((t) => t.amount))).toBe(sum(txs.map((t) => t.amount)));
  });

  test('HISTORICAL (deprecated): the transactions are stored, the balances are not, and the push says so', async () => {
    const txs = makeTxs(10, { accounts: 1, prefix: 'hist' });
    const file = join(dir, 'hist.json');
    writeFileSync(file, jsonContainer(txs, { 'acc-0': '777.77' }, 'HISTORICAL'));
    const user = env.sandbox.store.userByExternalId('fmt')!.id;
    const acc = () =>
      [...env.sandbox.store.accounts.values()].find((a) => a.userId === user && a.externalId === 'acc-0')!;
    const before = acc().balance;
    expect(before).not.toBe('777.77');
    const report = join(dir, 'hist.report.json');
    const r = await push(['--file', file, '--report', report]);
    expect(r.code, r.stderr).toBe(0);
    expect(stored('hist-')).toHaveLength(10);
    expect(acc().balance).toBe(before);
    expect(r.stderr).toContain('type HISTORICAL is deprecated and the service ignores the account balances it carries');
    const accounts = JSON.parse(readFileSync(report, 'utf8')).accounts;
    expect(accounts).toEqual([expect.objectContaining({ externalId: 'acc-0', balance: '777.77', balanceSent: false })]);
  });

  test('csv: header row, quoted fields with commas and newlines, ISO or epoch dates, balances from --accounts', async () => {
    const file = join(dir, 'in.csv');
    writeFileSync(
      file,
      'account,externalId,amount,date,description,type,pending\r\n' +
        'acc-0,csv-1,-10.50,2024-01-02,"Coffee, large",DEFAULT,false\r\n' +
        // a blank line between records, and one at the end (as spreadsheets export): no records
        '\r\n' +
        'acc-1,csv-2,2500.00,1700000000000,"Salary\nJanuary",TRANSFER,\r\n' +
        'acc-0,csv-3,-0.01,2024-01-03T10:00:00Z,"Say ""hi""",PAYMENT,true\r\n\r\n',
    );
    const accounts = join(dir, 'accounts.ndjson');
    writeFileSync(
      accounts,
      '{"externalId":"acc-0","name":"A","number":"1","balance":99.99,"type":"CHECKING"}\n{"externalId":"acc-1","name":"B","number":"2","balance":0.10,"type":"SAVINGS","reservedAmount":1}\n',
    );
    const r = await push(['--file', file, '--accounts', accounts]);
    expect(r.code, r.stderr).toBe(0);
    const t = stored('csv-').sort((a, b) => a.externalId!.localeCompare(b.externalId!));
    expect(t.map((x) => [x.amount, x.description, x.status, x.bookedDate])).toEqual([
      ['-10.50', 'Coffee, large', 'BOOKED', '2024-01-02'],
      ['2500.00', 'Salary\nJanuary', 'BOOKED', '2023-11-14'],
      ['-0.01', 'Say "hi"', 'PENDING', '2024-01-03'],
    ]);
  });

  test('ndjson from stdin ("-")', async () => {
    // a user of its own: verify compares the whole account with the file
    await userWithAccounts(env, 'stdin-user');
    const lines = makeTxs(3, { prefix: 'stdin' }).map((t) => ndjsonLine(t, '7'));
    const r = await runCli(['connector', 'push', '--user', 'stdin-user', '--file', '-'], {
      env: env.env,
      stdin: lines.join('\n'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(stored('stdin-')).toHaveLength(3);
    // and read back from stdin too (verify reads its input more than once: it is spooled)
    const v = await runCli(['connector', 'verify', '--user', 'stdin-user', '--file', '-', '-o', 'json'], {
      env: env.env,
      stdin: lines.join('\n'),
    });
    expect(v.code, v.stderr).toBe(0);
  });

  test('an empty stdin (closed, or a producer that failed in a pipe) is exit 2 for push and verify, not "0 pushed"', async () => {
    for (const verb of ['push', 'verify']) {
      const r = await runCli(['connector', verb, '--user', 'stdin-user', '--file', '-'], { env: env.env, stdin: '' });
      expect(r.code, verb).toBe(2);
      expect(r.stderr).toContain('--file -: nothing was read from standard input');
    }
  });

  test('an empty --checkpoint file (as mktemp makes) is a checkpoint with nothing delivered yet', async () => {
    await userWithAccounts(env, 'ckpt-user');
    const file = join(dir, 'ckpt.ndjson');
    writeFileSync(
      file,
      makeTxs(3, { prefix: 'ckpt' })
        .map((t) => ndjsonLine(t, '7'))
        .join('\n'),
    );
    const ckpt = join(dir, 'empty.ckpt');
    writeFileSync(ckpt, '');
    const r = await runCli(['connector', 'push', '--user', 'ckpt-user', '--file', file, '--checkpoint', ckpt], {
      env: env.env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(stored('ckpt-')).toHaveLength(3);
    expect(JSON.parse(readFileSync(ckpt, 'utf8')).delivered).toHaveLength(1);
  });
});

describe('which user', () => {
  test('a user id from the profile or BANKCTL_USER is no connector externalId: exit 2, nothing sent', async () => {
    const file = join(dir, 'who.ndjson');
    writeFileSync(file, `${makeTxs(1, { prefix: 'who' }).map((t) => ndjsonLine(t, '1'))[0]}\n`);
    const r = await runCli(['connector', 'push', '--file', file], {
      env: { ...env.env, BANKCTL_USER: 'e06c7b711818a82890aa24e85c26b5c7' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('which user? pass --user EXTERNAL_USER_ID');
    // the hint names where the id came from (here the environment, not the profile) and the way out
    expect(r.stderr).toContain(
      "the user e06c7b711818a82890aa24e85c26b5c7 of the environment is taken as the service's user id",
    );
    expect(r.stderr).toContain('if it is the externalId, pass --user e06c7b711818a82890aa24e85c26b5c7');
    expect(stored('who-')).toHaveLength(0);
  });
});

describe('malformed input: FILE:LINE, exit 2, nothing sent', () => {
  const good = (p: string, n: number) => makeTxs(n, { prefix: p }).map((t) => ndjsonLine(t, '1'));

  /** Pushes content as the file name: exit 2 with what message(file) says on stderr. */
  async function refused(name: string, content: string, message: (file: string) => string): Promise<void> {
    const file = join(dir, name);
    writeFileSync(file, content);
    const r = await push(['--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message(file));
  }
  const CSV_HEAD = 'account,externalId,amount,date,description,type';

  test('ndjson: a bad amount on line 4', async () => {
    const lines = good('bad-nd', 6);
    lines[3] = lines[3]!.replace(/"amount":[^,]+/, '"amount":"12,50"');
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, lines.join('\n'));
    const r = await push(['--file', file]);
    expect(r.code).toBe(2);
    // what came, and the amount a decimal comma most likely meant
    expect(r.stderr).toContain(
      `${file}:4: amount: must be a number, got "12,50" (a decimal comma? write 12.50, without quotes)`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(stored('bad-nd')).toHaveLength(0);
  });

  test('ndjson: a member given twice in a line (the last would win unseen) is refused, naming it', async () => {
    const lines = good('twice-nd', 4);
    lines[2] = lines[2]!.replace(/"amount":([^,]+)/, '"amount":$1,"amount":-99999.00');
    const file = join(dir, 'twice.ndjson');
    writeFileSync(file, lines.join('\n'));
    const r = await push(['--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:3: line: "amount" appears twice in the line`);
    expect(stored('twice-nd')).toHaveLength(0);
  });

  test('ndjson: broken JSON on line 2 (after the first chunk would already be full)', async () => {
    const lines = good('bad-js', 3000);
    lines[2600] = '{"externalId": "x", ';
    const file = join(dir, 'broken.ndjson');
    writeFileSync(file, lines.join('\n'));
    const r = await push(['--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:2601:`);
    expect(stored('bad-js')).toHaveLength(0);
  });

  test('json: the line of the bad transaction inside the container', async () => {
    const txs = makeTxs(5, { prefix: 'bad-json' });
    const text = jsonContainer(txs, { 'acc-0': '1' }).replace('"type":"DEFAULT"', '"type":"SHOPPING"');
    const file = join(dir, 'bad.json');
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('SHOPPING')) + 1;
    const r = await push(['--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file}:${line}: type: must be one of DEFAULT, CREDIT_CARD, TRANSFER, PAYMENT, WITHDRAWAL`,
    );
    expect(stored('bad-json')).toHaveLength(0);
  });

  test('json: a syntax error names its line', async () => {
    await refused(
      'syntax.json',
      '{\n  "type": "BATCH",\n  "transactionAccounts": [\n    {"externalId": "acc-0" "balance": 1}\n  ]\n}\n',
      (f) => `${f}:4: malformed JSON`,
    );
  });

  test('csv: a missing description on the record that starts on line 4 (a quoted newline before it)', async () => {
    await refused(
      'bad.csv',
      `${CSV_HEAD},balance\nacc-0,bad-csv-1,1.00,1700000000000,"two\nlines",DEFAULT,5\nacc-0,bad-csv-2,1.00,1700000000000,,DEFAULT,5\n`,
      (f) => `${f}:4: description: must not be empty`,
    );
    expect(stored('bad-csv')).toHaveLength(0);
  });

  test('csv: a decimal comma in an amount cell names the amount it most likely meant', async () => {
    await refused(
      'comma.csv',
      `${CSV_HEAD},balance\nacc-0,comma-csv-1,"-12,50",1700000000000,x,DEFAULT,5\n`,
      (f) => `${f}:2: amount: must be a number, got "-12,50" (a decimal comma? write -12.50)`,
    );
    expect(stored('comma-csv')).toHaveLength(0);
  });

  test('csv: a header column bankctl does not send (a typo, a currency) is refused, not dropped; so is one given twice', async () => {
    await refused(
      'odd-header.csv',
      `${CSV_HEAD},balance,currency\nacc-0,odd-csv-1,1.00,1700000000000,x,DEFAULT,5,EUR\n`,
      (f) => `${f}:1: the header row names "currency", not a column bankctl sends`,
    );
    await refused(
      'twice-header.csv',
      `${CSV_HEAD},amount\nacc-0,odd-csv-2,1.00,1700000000000,x,DEFAULT,2.00\n`,
      (f) => `${f}:1: the header row names amount twice`,
    );
    // the typo in place of the column: both are named
    await refused(
      'typo-header.csv',
      'account,externalId,amout,date,description,Type\nacc-0,odd-csv-3,1.00,1700000000000,x,DEFAULT\n',
      (f) =>
        `${f}:1: the header row lacks amount, type and names "amout", "Type" instead (column names are case-sensitive)`,
    );
    expect(stored('odd-csv')).toHaveLength(0);
  });

  test('a date in epoch seconds is refused with the milliseconds it probably means; an ISO date of 1970 is taken', async () => {
    await refused(
      'seconds.ndjson',
      '{"account":"acc-0","balance":1,"externalId":"sec-1","amount":1.00,"date":1700000000000,"description":"ok","type":"DEFAULT"}\n' +
        '{"account":"acc-0","balance":1,"externalId":"sec-2","amount":1.00,"date":1700000000,"description":"seconds","type":"DEFAULT"}\n',
      (f) =>
        `${f}:2: date: is 1700000000, which as epoch milliseconds is before 1973: epoch seconds? Give milliseconds (1700000000000) or an ISO-8601 date`,
    );
    await refused(
      'seconds.csv',
      `${CSV_HEAD},balance\nacc-0,sec-3,1.00,1700000000,x,DEFAULT,5\n`,
      (f) => `${f}:2: date: is 1700000000, which as epoch milliseconds is before 1973`,
    );
    await refused(
      'compact.csv',
      `${CSV_HEAD},balance\nacc-0,sec-4,1.00,20231114,x,DEFAULT,5\n`,
      (f) => `${f}:2: date: is 20231114: a date without its dashes? Write 2023-11-14 (ISO-8601) or epoch milliseconds`,
    );
    expect(stored('sec-')).toHaveLength(0);

    const iso = join(dir, 'iso-1970.csv');
    writeFileSync(
      iso,
      'account,externalId,amount,date,description,type,balance\nacc-0,iso70-1,1.00,1970-01-02,x,DEFAULT,5\n',
    );
    const ok = await push(['--file', iso]);
    expect(ok.code).toBe(0);
    expect(stored('iso70-').map((t) => t.bookedDate)).toEqual(['1970-01-02']);
  });

  test('an account without a balance is named with the line it first appears on', async () => {
    const file = join(dir, 'nobalance.ndjson');
    writeFileSync(
      file,
      makeTxs(2, { prefix: 'nobal' })
        .map((t) => ndjsonLine(t))
        .join('\n'),
    );
    const r = await push(['--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:1: no balance for account "acc-0"`);
  });

  test('--skip-invalid sends the valid records and writes the rejects with their lines', async () => {
    const lines = good('skip', 10);
    lines[1] = '{not json';
    lines[7] = lines[7]!.replace('"type":"DEFAULT"', '"type":"NOPE"');
    const file = join(dir, 'skip.ndjson');
    writeFileSync(file, lines.join('\n'));
    const rejects = join(dir, 'rejects.ndjson');
    const r = await push(['--file', file, '--skip-invalid', rejects]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('rejected 2');
    expect(stored('skip-')).toHaveLength(8);
    const rej = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rej.map((x: { line: number }) => x.line)).toEqual([2, 8]);
  });

  test('--dry-run names what the reference refuses in a record (the service refuses its whole chunk)', async () => {
    const line = (id: string, extra: string) =>
      `{"account":"acc-0","balance":1.00,"externalId":"${id}","amount":-1.00,"date":1700000000000,"description":"x","type":"DEFAULT"${extra}}`;
    const file = join(dir, 'rules.ndjson');
    writeFileSync(
      file,
      [
        line(
          'rules-ok',
          ',"merchantCategoryCode":"5411","payload":{"TAGS":["travel2026"],"PENDING_TRANSACTION_EXPIRATION_DATE":1}',
        ),
        line('rules-mcc', ',"merchantCategoryCode":"541"'),
        line('rules-key', ',"payload":{"ref":"x"}'),
        line('rules-tag', ',"payload":{"TAGS":["a b"]}'),
        line('rules-size', `,"payload":{"TAGS":["${'t'.repeat(1000)}"]}`),
      ].join('\n'),
    );
    const rejects = join(dir, 'rules.rejects.ndjson');
    const r = await push(['--file', file, '--dry-run', '--skip-invalid', rejects]);
    expect(r.code, r.stderr).toBe(0);
    const rej = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; error: string });
    expect(rej.map((x) => x.line)).toEqual([2, 3, 4, 5]);
    expect(rej[0]!.error).toContain('merchantCategoryCode: must be an ISO 18245 code of 4 digits');
    expect(rej[1]!.error).toContain('payload.ref: is not a payload key the service takes');
    expect(rej[2]!.error).toContain('payload.TAGS: each tag must be letters and digits, without whitespace');
    expect(rej[3]!.error).toMatch(/payload: is \d+ characters of JSON, more than 1000/);
    // without --skip-invalid the file is refused before anything is sent
    const sent = await push(['--file', file]);
    expect(sent.code).not.toBe(0);
    expect(stored('rules-')).toHaveLength(0);
  });

  test('--dry-run validates and counts, sends nothing', async () => {
    const file = join(dir, 'dry.ndjson');
    writeFileSync(file, good('dry', 2600).join('\n'));
    const r = await push(['--file', file, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('2600 transaction(s) valid in 2 chunk(s)');
    expect(stored('dry-')).toHaveLength(0);
  });
});

describe('a large ndjson file, checked in ranges by worker threads', () => {
  // above PARALLEL_MIN_BYTES (16 MB), so the real binary scans it side by side
  const big = (n: number, line: (i: number) => string) => {
    const file = join(dir, `big-${n}-${Math.random().toString(36).slice(2)}.ndjson`);
    writeFileSync(file, Array.from({ length: n }, (_, i) => line(i + 1)).join('\n'));
    return file;
  };
  const tx = (i: number, extra: string) =>
    `{"account":"${i > 60_000 && i % 2 ? 'acc-1' : 'acc-0'}",${extra}"externalId":"big-${i}","amount":-${i % 1000}.${String(i % 100).padStart(2, '0')},"date":${1_700_000_000_000 + i},"description":"A shop with a rather long name, number ${i % 500}","type":"DEFAULT"}`;

  test('lands every transaction with the last balance of each account, wherever it appears', async () => {
    const file = big(120_000, (i) =>
      tx(i, i <= 60_000 ? '"balance":1.00,' : i % 2 ? '"balance":3.30,' : '"balance":2.20,'),
    );
    const report = join(dir, 'big.report.json');
    const r = await spawnCli(['connector', 'push', '--user', 'fmt', '--file', file, '--report', report], {
      env: env.env,
      timeoutMs: 120_000,
    });
    expect(r.stderr).toContain('transaction(s) in 48 chunk(s)');
    expect(r.code).toBe(0);
    expect(stored('big-')).toHaveLength(120_000);
    const accounts = JSON.parse(readFileSync(report, 'utf8')).accounts;
    expect(accounts).toEqual([
      expect.objectContaining({ externalId: 'acc-0', transactions: 90_000, delivered: 90_000, balance: '2.20' }),
      expect.objectContaining({ externalId: 'acc-1', transactions: 30_000, delivered: 30_000, balance: '3.30' }),
    ]);
    const balances = [...env.sandbox.store.accounts.values()]
      .filter((a) => a.name.startsWith('Account'))
      .map((a) => a.balance);
    expect(balances).toEqual(expect.arrayContaining(['2.20', '3.30']));
  }, 120_000);

  test('a byte that is not UTF-8 late in the file is named by its line, from the range a worker read', async () => {
    const file = join(dir, 'big-latin1.ndjson');
    const lines = Array.from({ length: 120_000 }, (_, i) => tx(i + 1, '"balance":1.00,'));
    lines[100_000] = lines[100_000]!.replace('A shop', 'Caf\u00e9'); // written as Latin-1: one byte 0xE9
    writeFileSync(file, Buffer.from(lines.join('\n'), 'latin1'));
    const r = await spawnCli(['connector', 'push', '--user', 'fmt', '--file', file, '--dry-run'], { env: env.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:100001: not valid UTF-8 (byte 0xE9`);
  });

  test('a bad record late in the file and an account first seen late without a balance are named by their lines', async () => {
    const bad = big(120_000, (i) =>
      i === 100_001
        ? '{"account":"acc-0","externalId":"late","amount":"12","date":1600000000000,"description":"d","type":"DEFAULT"}'
        : tx(i, '"balance":1.00,'),
    );
    const r = await spawnCli(['connector', 'push', '--user', 'fmt', '--file', bad, '--dry-run'], { env: env.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:100001: amount: must be a number`);
    const noBalance = big(120_000, (i) => tx(i, i > 60_000 && i % 2 ? '' : '"balance":1.00,'));
    const r2 = await spawnCli(['connector', 'push', '--user', 'fmt', '--file', noBalance, '--dry-run'], {
      env: env.env,
    });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`${noBalance}:60001: no balance for account "acc-1"`);
  }, 60_000);
});
