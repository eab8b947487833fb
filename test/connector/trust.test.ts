// `connector push` refuses what it cannot deliver right, through the spawned CLI: a checkpoint bound
// to the service, the user and the input's content; every problem of a file reported before anything
// is sent (calendar dates, amounts the service cannot hold, byte order marks, duplicate ids), each as
// FILE:LINE; hostile inputs with a bounded memory cost; a report that cannot be written after the
// data was delivered; ISO dates alike in every format; unknown properties passed through as written.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { makeTxs, ndjsonLine, userWithAccounts, writeNdjson } from './helpers.js';

// each test spawns several CLIs, some over files of megabytes: room for a loaded 2-core machine
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let a: TestEnv;
let b: TestEnv;
let dir: string;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  dir = tempDir();
  await Promise.all([
    userWithAccounts(a, 'alice', 2),
    userWithAccounts(a, 'bob', 2),
    userWithAccounts(a, 'pass', 1),
    userWithAccounts(b, 'alice', 2),
  ]);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const push = (env: TestEnv, args: string[], extra: Record<string, string> = {}) =>
  spawnCli(['connector', 'push', ...args], { env: { ...env.env, ...extra }, timeoutMs: 60_000 });
const stored = (env: TestEnv, prefix: string) =>
  [...env.sandbox.store.transactions.values()].filter((t) => t.externalId!.startsWith(prefix));
const tx = (id: string, extra = '') =>
  `{"account":"acc-0","balance":10,"externalId":"${id}","amount":-1.50,"date":1700000000000,"description":"Shop","type":"DEFAULT"${extra}}`;

describe('a checkpoint is bound to the service, the user and the input', () => {
  test('a resume against another service, another user or a changed file is refused with exit 2 naming what differs', async () => {
    const file = writeNdjson(dir, 'cp.ndjson', makeTxs(3000, { accounts: 2, prefix: 'cp' }));
    const ckpt = join(dir, 'cp.ckpt');
    const first = await push(a, ['--user', 'alice', '--file', file, '--checkpoint', ckpt]);
    expect(first.code, first.stderr).toBe(0);

    const otherService = await push(b, ['--user', 'alice', '--file', file, '--checkpoint', ckpt]);
    expect(otherService.code).toBe(2);
    expect(otherService.stderr).toContain('another service');
    expect(otherService.stderr).toContain(b.sandbox.baseUrl);
    expect(stored(b, 'cp-')).toHaveLength(0);

    const otherUser = await push(a, ['--user', 'bob', '--file', file, '--checkpoint', ckpt]);
    expect(otherUser.code).toBe(2);
    expect(otherUser.stderr).toContain('another user');

    // the same size and modification time, other bytes: the content hash tells them apart
    const st = statSync(file);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"cp-0"', '"cp-X"'));
    utimesSync(file, st.atime, st.mtime);
    expect(statSync(file).size).toBe(st.size);
    const changed = await push(a, ['--user', 'alice', '--file', file, '--checkpoint', ckpt]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('another content of the input file');
    expect(stored(a, 'cp-X')).toHaveLength(0);

    // the unchanged file resumes: nothing sent again
    writeFileSync(file, text);
    const again = await push(a, ['--user', 'alice', '--file', file, '--checkpoint', ckpt]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/2 delivered before, skipped\): sent 0/);
  });
});

describe('validation: every problem before anything is sent, each as FILE:LINE', () => {
  const header = 'account,externalId,amount,date,description,type,balance';
  const cases: Array<[string, string, string, RegExp]> = [
    [
      'ndjson',
      'v.ndjson',
      [tx('v1'), tx('v2').replace('1700000000000', '"2024-02-30"'), tx('v3').replace('-1.50', '0.1e-400')].join('\n'),
      /v\.ndjson:2: date: .*calendar[\s\S]*v\.ndjson:3: amount: is out of range/,
    ],
    [
      'json',
      'v.json',
      `{"type":"HISTORICAL","transactionAccounts":[{"externalId":"acc-0","balance":1,"transactions":[\n${[
        tx('v1'),
        tx('v2').replace('1700000000000', '"2024-02-30"'),
        tx('v3').replace('-1.50', '1'.repeat(45)),
      ]
        .map((t) => t.replace('"account":"acc-0","balance":10,', ''))
        .join(',\n')}\n]}]}`,
      /v\.json:3: date: .*calendar[\s\S]*v\.json:4: amount: has too many digits/,
    ],
    [
      'csv',
      'v.csv',
      [
        header,
        'acc-0,v1,1.00,2024-03-01,Shop,DEFAULT,10',
        'acc-0,v2,1.00,2024-02-30,Shop,DEFAULT,10',
        'acc-0,v3,0.1e-400,2024-03-01,Shop,DEFAULT,10',
      ].join('\n'),
      /v\.csv:3: date: .*calendar[\s\S]*v\.csv:4: amount: is out of range/,
    ],
  ];
  for (const [format, name, text, expected] of cases) {
    test(`${format}: a calendar-invalid date and an amount the service cannot hold, both reported, exit 2, nothing sent`, async () => {
      const file = join(dir, name);
      writeFileSync(file, text);
      const r = await push(a, ['--user', 'alice', '--file', file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(expected);
      expect(r.stderr).toContain('2 problem(s)');
      expect(stored(a, 'v1')).toHaveLength(0);
    });
  }

  test('a byte order mark: accepted at the start of a file in every format, named with its line anywhere else', async () => {
    const bom = '\uFEFF';
    const ok = join(dir, 'bom-start.ndjson');
    writeFileSync(ok, `${bom}${tx('bom-1')}\n${tx('bom-2')}\n`);
    const start = await push(a, ['--user', 'alice', '--file', ok]);
    expect(start.code, start.stderr).toBe(0);
    expect(stored(a, 'bom-')).toHaveLength(2);
    const csv = join(dir, 'bom-start.csv');
    writeFileSync(csv, `${bom}${header}\nacc-0,bomc-1,1.00,2024-03-01,Shop,DEFAULT,10\n`);
    expect((await push(a, ['--user', 'alice', '--file', csv])).code).toBe(0);
    const json = join(dir, 'bom-start.json');
    writeFileSync(
      json,
      `${bom}{"type":"HISTORICAL","transactionAccounts":[{"externalId":"acc-0","balance":1,"transactions":[{"externalId":"bomj-1","amount":1,"date":1700000000000,"description":"d","type":"DEFAULT"}]}]}`,
    );
    expect((await push(a, ['--user', 'alice', '--file', json])).code).toBe(0);

    const joined = join(dir, 'bom-joined.ndjson');
    writeFileSync(joined, `${tx('bomx-1')}\n${bom}${tx('bomx-2')}\n`);
    const mid = await push(a, ['--user', 'alice', '--file', joined]);
    expect(mid.code).toBe(2);
    expect(mid.stderr).toMatch(/bom-joined\.ndjson:2: .*byte order mark/);
    const joinedCsv = join(dir, 'bom-joined.csv');
    writeFileSync(joinedCsv, `${header}\nacc-0,bomy-1,1.00,2024-03-01,Shop,DEFAULT,10\n${bom}${header}\n`);
    const midCsv = await push(a, ['--user', 'alice', '--file', joinedCsv]);
    expect(midCsv.code).toBe(2);
    expect(midCsv.stderr).toMatch(/bom-joined\.csv:3: .*byte order mark/);
    expect(stored(a, 'bomx-')).toHaveLength(0);
  });

  test('bytes that are not UTF-8 are named by line and column in every format, never pushed as U+FFFD', async () => {
    // "Caf\xe9": a Latin-1 e-acute, which Node's decoders would turn into U+FFFD without a word
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const nd = join(dir, 'latin1.ndjson');
    writeFileSync(nd, latin1(`${tx('l1-1')}\n${tx('l1-2').replace('Shop', 'Caf\xe9')}\n`));
    const r = await push(a, ['--user', 'alice', '--file', nd]);
    expect(r.code).toBe(2);
    const column = tx('l1-2').indexOf('Shop') + 4;
    expect(r.stderr).toContain(`latin1.ndjson:2: not valid UTF-8 (byte 0xE9 at column ${column})`);
    expect(stored(a, 'l1-')).toHaveLength(0);

    // --skip-invalid leaves the line out with its reason, the rest is delivered
    const rejects = join(dir, 'latin1.rejects.ndjson');
    const skip = await push(a, ['--user', 'alice', '--file', nd, '--skip-invalid', rejects]);
    expect(skip.code, skip.stderr).toBe(0);
    expect(stored(a, 'l1-').map((t) => t.externalId)).toEqual(['l1-1']);
    const rejected = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; error: string });
    expect(rejected).toEqual([expect.objectContaining({ line: 2, error: expect.stringContaining('not valid UTF-8') })]);

    // csv: a bad byte past the first read (64 KiB) and a good three-byte character cut by that read's end
    const rows = [header];
    while (rows.join('\n').length < 65_400) rows.push(`acc-0,l1c-${rows.length},1.00,2024-03-01,Shop,DEFAULT,10`);
    const head = `${rows.join('\n')}\nacc-0,l1c-euro,1.00,2024-03-01,`;
    const euro = Buffer.concat([
      Buffer.from(head),
      Buffer.alloc(65_535 - Buffer.byteLength(head), 'x'),
      Buffer.from('\u20ac,DEFAULT,10\n'),
    ]);
    expect(euro.indexOf(Buffer.from('\u20ac'))).toBe(65_535); // its second byte starts the second read
    const goodCsv = join(dir, 'euro.csv');
    writeFileSync(goodCsv, euro);
    const good = await push(a, ['--user', 'alice', '--file', goodCsv, '--dry-run']);
    expect(good.code, good.stderr).toBe(0);
    const badCsv = join(dir, 'latin1.csv');
    writeFileSync(badCsv, Buffer.concat([euro, latin1('acc-0,l1c-bad,1.00,2024-03-01,Caf\xe9,DEFAULT,10\n')]));
    const c = await push(a, ['--user', 'alice', '--file', badCsv]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`latin1.csv:${rows.length + 2}: not valid UTF-8 (byte 0xE9 at column 34)`);
    expect(stored(a, 'l1c-')).toHaveLength(0);
    const v = await spawnCli(['connector', 'verify', '--user', 'alice', '--file', badCsv], { env: a.env });
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(`latin1.csv:${rows.length + 2}: not valid UTF-8`);

    // json, and a three-byte sequence cut short by the end of the file
    const json = join(dir, 'latin1.json');
    const doc = `{"transactionAccounts":[{"externalId":"acc-0","balance":1,"transactions":[\n{"externalId":"l1j-1","amount":1,"date":1700000000000,"description":"Caf\xe9","type":"DEFAULT"}]}]}`;
    writeFileSync(json, latin1(doc));
    const j = await push(a, ['--user', 'alice', '--file', json]);
    expect(j.code).toBe(2);
    expect(j.stderr).toContain(
      `latin1.json:2: not valid UTF-8 (byte 0xE9 at column ${doc.split('\n')[1]!.indexOf('Caf') + 4})`,
    );
    const cut = join(dir, 'cut.csv');
    writeFileSync(
      cut,
      Buffer.concat([
        Buffer.from(`${header}\nacc-0,l1t-1,1.00,2024-03-01,Shop,DEFAULT,10\n`),
        Buffer.from([0xe2, 0x82]),
      ]),
    );
    const t = await push(a, ['--user', 'alice', '--file', cut]);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('cut.csv:3: not valid UTF-8 (byte 0xE2 at column 1)');

    // --accounts, where the account names and numbers come from
    const accounts = join(dir, 'latin1-accounts.ndjson');
    writeFileSync(
      accounts,
      latin1('{"externalId":"acc-0","name":"G\xf6ran","number":"1","balance":1,"type":"CHECKING"}\n'),
    );
    const ok = join(dir, 'l1-ok.ndjson');
    writeFileSync(ok, `${tx('l1a-1')}\n`);
    const acc = await push(a, ['--user', 'alice', '--file', ok, '--accounts', accounts]);
    expect(acc.code).toBe(2);
    expect(acc.stderr).toContain('latin1-accounts.ndjson:1: not valid UTF-8 (byte 0xF6 at column 32)');

    // real UTF-8 beyond ASCII is pushed as written
    const utf8 = join(dir, 'utf8.ndjson');
    writeFileSync(utf8, `${tx('l1u-1').replace('Shop', 'Caf\u00e9 \u20ac \u{1F4B0}')}\n`);
    const u = await push(a, ['--user', 'alice', '--file', utf8]);
    expect(u.code, u.stderr).toBe(0);
    expect(stored(a, 'l1u-')[0]!.description).toBe('Caf\u00e9 \u20ac \u{1F4B0}');
  });

  test('every problem up to 50, then a count; a duplicate externalId names both lines', async () => {
    const lines = [tx('many-0')];
    for (let i = 1; i <= 60; i++) lines.push(tx(`many-${i}`).replace('"DEFAULT"', '"NOPE"'));
    lines.push(tx('many-0'));
    const file = join(dir, 'many.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await push(a, ['--user', 'alice', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('61 problem(s) in');
    const listed = r.stderr.split('\n').filter((l) => /^(error: )?.*many\.ndjson:\d+: /.test(l));
    expect(listed).toHaveLength(50);
    expect(r.stderr).toContain('and 11 more problem(s)');
    expect(stored(a, 'many-')).toHaveLength(0);

    const dup = join(dir, 'dup.ndjson');
    writeFileSync(dup, [tx('dup-1'), tx('dup-2'), tx('dup-3'), tx('dup-2')].join('\n'));
    const d = await push(a, ['--user', 'alice', '--file', dup]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/dup\.ndjson:4: externalId "dup-2" appears twice: on line 2 and on line 4/);
    const dupCsv = join(dir, 'dup.csv');
    writeFileSync(
      dupCsv,
      `${header}\nacc-0,dc-1,1,1700000000000,d,DEFAULT,1\nacc-1,dc-1,1,1700000000000,d,DEFAULT,1\n`,
    );
    const dc = await push(a, ['--user', 'alice', '--file', dupCsv]);
    expect(dc.code).toBe(2);
    expect(dc.stderr).toMatch(/dup\.csv:3: externalId "dc-1" appears twice: on line 2 and on line 3/);
    expect(stored(a, 'dup-')).toHaveLength(0);
  });

  test('deeply nested JSON and an unterminated quoted csv field of 40 MB are input errors at a bounded memory cost', async () => {
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    const small = { NODE_OPTIONS: '--max-old-space-size=96' };
    const d = await push(a, ['--user', 'alice', '--file', deep], small);
    expect(d.code, d.stderr).toBe(2);
    expect(d.stderr).toMatch(/deep\.json:1: malformed JSON: nested deeper than 512 levels/);
    const deepLine = join(dir, 'deep.ndjson');
    writeFileSync(deepLine, `{"account":"acc-0","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}\n`);
    const dl = await push(a, ['--user', 'alice', '--file', deepLine], small);
    expect(dl.code, dl.stderr).toBe(2);
    expect(dl.stderr).toContain('deep.ndjson:1:');

    const open = join(dir, 'open.csv');
    writeFileSync(open, `${header}\nacc-0,o1,1.00,2024-03-01,"${'x'.repeat(40 << 20)}`);
    const o = await push(a, ['--user', 'alice', '--file', open], small);
    expect(o.code, o.stderr).toBe(2);
    expect(o.stderr).toMatch(/open\.csv:2: .*longer than 1 MB: an unterminated quoted field/);
  }, 60_000);
});

describe('after delivery', () => {
  test('a report that cannot be written: exit 8, and the message says the data was delivered', async () => {
    const file = writeNdjson(dir, 'rep.ndjson', makeTxs(10, { prefix: 'rep' }));
    // a name too long for the file system: its directory is writable, so the check before the push
    // passes, and the write after it fails (a directory there is refused up front, exit 2)
    const report = join(dir, `${'r'.repeat(300)}.json`);
    const r = await push(a, ['--user', 'alice', '--file', file, '--report', report]);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toContain(`cannot write ${report}`);
    expect(r.stderr).toContain('all 10 transaction(s) were delivered');
    expect(r.stderr).not.toMatch(/unexpected|at .*\.js:\d+/);
    expect(stored(a, 'rep-')).toHaveLength(10);
  });
});

/** A loopback service that records every ingest body and answers with the given status. */
async function capture(status = 204, answer = ''): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}`, bodies };
}

const viaCapture = (url: string, args: string[]) =>
  spawnCli(['connector', 'push', '--user', 'alice', ...args], {
    env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: url, BANKCTL_CONNECTOR_TOKEN: 'c', BANKCTL_RETRIES: '0' },
  });

describe('what the service is sent', () => {
  const container = `{"type":"REAL_TIME","overridePending":true,"autoBook":false,"extra":{"n":12345678901234567891},
  "transactionAccounts":[{"externalId":"acc-0","balance":1.10,"payload":{"iban":"SE00","big":1e400},"closing":0.000000000000000000001,
  "transactions":[{"externalId":"pt-1","amount":-12345678901234567.891,"date":1700000000000,"description":"d","type":"DEFAULT","mystery":[1.0,2.50],"bookingStatus":"X"}]}]}`;

  test('every container, account and transaction property bankctl does not know passes through as written', async () => {
    const file = join(dir, 'pass.json');
    writeFileSync(file, container);
    const svc = await capture();
    try {
      const r = await viaCapture(svc.url, ['--file', file]);
      expect(r.code, r.stderr).toBe(0);
      expect(svc.bodies).toHaveLength(1);
      const body = svc.bodies[0]!;
      for (const written of [
        '"overridePending":true',
        '"autoBook":false',
        '"extra":{"n":12345678901234567891}',
        '"payload":{"iban":"SE00","big":1e400}',
        '"closing":0.000000000000000000001',
        '"amount":-12345678901234567.891',
        '"mystery":[1.0,2.50]',
        '"bookingStatus":"X"',
        '"balance":1.10',
        '"type":"REAL_TIME"',
      ])
        expect(body).toContain(written);
    } finally {
      svc.server.close();
    }
  });

  test('the sandbox takes them, and verify ignores them', async () => {
    const file = join(dir, 'pass-sb.json');
    writeFileSync(file, container.replace('REAL_TIME', 'HISTORICAL'));
    const r = await push(a, ['--user', 'pass', '--file', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(stored(a, 'pt-1')).toHaveLength(1);
    const v = await spawnCli(['connector', 'verify', '--user', 'pass', '--file', file, '-o', 'json'], { env: a.env });
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)[0]).toMatchObject({
      account: 'acc-0',
      expectedSum: '-12345678901234567.891',
      ok: true,
    });
  });

  test('a chunk the service rejects with a 400 names the FILE:LINE of the record it points at', async () => {
    const svc = await capture(
      400,
      JSON.stringify({
        errorMessage: 'transactionAccounts[1].transactions[1].description: is required',
        errorCode: 'request.invalid',
        errorDetails: { field: 'transactionAccounts[1].transactions[1].description' },
      }),
    );
    try {
      const lines = makeTxs(6, { accounts: 2, prefix: 'rej' }).map((t) => ndjsonLine(t, '1'));
      const file = join(dir, 'rej.ndjson');
      writeFileSync(file, `${lines.join('\n')}\n`);
      const r = await viaCapture(svc.url, ['--file', file]);
      expect(r.code).toBe(2);
      // account 1 (acc-1) holds lines 2, 4, 6: its second transaction is line 4
      expect(r.stderr).toContain('rej.ndjson:4: the service rejected this record');
    } finally {
      svc.server.close();
    }
  });
});

describe('ISO-8601 dates alike in every format', () => {
  test('ndjson, json and csv take the same date forms and send the same epoch milliseconds', async () => {
    const forms = ['2024-03-01', '2024-03-01T12:30:00Z', '2024-03-01T13:30:00+01:00', '2024-03-01T12:30:00.250Z'];
    const expected = [
      Date.UTC(2024, 2, 1),
      Date.UTC(2024, 2, 1, 12, 30),
      Date.UTC(2024, 2, 1, 12, 30),
      Date.UTC(2024, 2, 1, 12, 30, 0, 250),
    ];
    const nd = join(dir, 'iso.ndjson');
    writeFileSync(nd, forms.map((d, i) => tx(`isoN-${i}`).replace('1700000000000', `"${d}"`)).join('\n'));
    const js = join(dir, 'iso.json');
    writeFileSync(
      js,
      `{"type":"HISTORICAL","transactionAccounts":[{"externalId":"acc-0","balance":1,"transactions":[${forms
        .map((d, i) => `{"externalId":"isoJ-${i}","amount":1,"date":"${d}","description":"d","type":"DEFAULT"}`)
        .join(',')}]}]}`,
    );
    const cs = join(dir, 'iso.csv');
    writeFileSync(
      cs,
      `account,externalId,amount,date,description,type,balance\n${forms.map((d, i) => `acc-0,isoC-${i},1,${d},d,DEFAULT,1`).join('\n')}\n`,
    );
    for (const [file, prefix] of [
      [nd, 'isoN-'],
      [js, 'isoJ-'],
      [cs, 'isoC-'],
    ] as const) {
      const r = await push(a, ['--user', 'alice', '--file', file]);
      expect(r.code, `${file}: ${r.stderr}`).toBe(0);
      const got = stored(a, prefix).sort((x, y) => x.externalId!.localeCompare(y.externalId!));
      expect(got.map((t) => Date.parse(`${t.bookedDate}T00:00:00Z`))).toEqual(
        expected.map((ms) => Date.parse(new Date(ms).toISOString().slice(0, 10) + 'T00:00:00Z')),
      );
    }
  });
});

describe('connector accounts push reads what push --accounts reads', () => {
  const accounts = [
    { externalId: 'ap-1', name: 'Main', number: '1', balance: '10.05', type: 'CHECKING' },
    { externalId: 'ap-2', name: 'Save', number: '2', balance: '-0.10', type: 'SAVINGS' },
  ];
  const forms: Array<[string, (u: string) => string]> = [
    [
      'json',
      (u) =>
        JSON.stringify({ accounts: accounts.map((x) => ({ ...x, externalId: `${u}${x.externalId}` })) }).replace(
          /"balance":"([^"]+)"/g,
          '"balance":$1',
        ),
    ],
    [
      'ndjson',
      (u) =>
        accounts
          .map((x) =>
            JSON.stringify({ ...x, externalId: `${u}${x.externalId}` }).replace(/"balance":"([^"]+)"/g, '"balance":$1'),
          )
          .join('\n'),
    ],
    [
      'csv',
      (u) =>
        `externalId,name,number,balance,type\n${accounts.map((x) => `${u}${x.externalId},${x.name},${x.number},${x.balance},${x.type}`).join('\n')}\n`,
    ],
  ];
  for (const [format, text] of forms) {
    test(`${format}`, async () => {
      const user = `ap-${format}`;
      await spawnCli(['connector', 'users', 'create', '--external-id', user, '--user-token-stdin', '--market', 'SE'], {
        env: a.env,
        stdin: 't\n',
      });
      const file = join(dir, `accounts.${format}`);
      writeFileSync(file, text(user));
      const r = await spawnCli(['connector', 'accounts', 'push', '--user', user, '--file', file], { env: a.env });
      expect(r.code, r.stderr).toBe(0);
      const uid = a.sandbox.store.userByExternalId(user)!.id;
      const got = [...a.sandbox.store.accounts.values()].filter((x) => x.userId === uid);
      expect(got.map((x) => [x.externalId, x.balance]).sort()).toEqual([
        [`${user}ap-1`, '10.05'],
        [`${user}ap-2`, '-0.10'],
      ]);
      // and the same file gives push --accounts its balances
      const txFile = join(dir, `ap-${format}.ndjson`);
      writeFileSync(
        txFile,
        `{"account":"${user}ap-1","externalId":"${user}-t","amount":1,"date":1700000000000,"description":"d","type":"DEFAULT"}\n`,
      );
      const p = await push(a, ['--user', user, '--file', txFile, '--accounts', file, '--dry-run']);
      expect(p.code, p.stderr).toBe(0);
    });
  }
});
