// --fields for every format, --jq (the real jq, loaded on demand), csv amounts, through the CLI
// against a sandbox.
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { jsonAnswerServer } from '../helpers/scripted-server.js';
import { useSandbox } from '../helpers/commands.js';

const s = useSandbox({ months: 2 });
const list = ['transactions', 'list', '--limit', '5'];
// the sandbox holds more than 5: --limit says on stderr that it stopped before the end (a page of 5:
// the next page's token reaches the rest)
const more = /^more transactions: stopped at --limit 5; use --all, or --page-token [\w-]+\n$/;

describe('--fields', () => {
  test('json keeps only the chosen paths, in that order', async () => {
    const r = await runCli([...list, '-o', 'json', '--fields', 'status,amount.currencyCode,id'], { env: s.env });
    expect(r.stderr).toMatch(more);
    const items = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(items).toHaveLength(5);
    expect(Object.keys(items[0]!)).toEqual(['status', 'amount', 'id']);
    expect(items[0]!.amount).toEqual({ currencyCode: 'SEK' });
  });

  test('ndjson too', async () => {
    const r = await runCli([...list, '-o', 'ndjson', '--fields', 'id'], { env: s.env });
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(Object.keys(JSON.parse(l) as object)).toEqual(['id']);
  });

  test('an unknown path is exit 2 listing the available ones', async () => {
    const r = await runCli([...list, '-o', 'json', '--fields', 'id,nope.x'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown path "nope\.x"/);
    expect(r.stderr).toMatch(/available: .*dates\.booked/);
    expect(r.stdout).toBe('');
  });

  test('--fields alone and --fields help list the paths', async () => {
    for (const args of [['--fields'], ['--fields', 'help']]) {
      const r = await runCli([...list, '-o', 'json', ...args], { env: s.env });
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')).toEqual(
        expect.arrayContaining(['id', 'amount.value.unscaledValue', 'dates.booked']),
      );
    }
  });

  // the paths are the answer's keys: a colour (which the terminal guard lets through) in a key a
  // bank sent could hide a path or paint the lines after it
  test('--fields help on a terminal: keys from the network without escape sequences, one a line', async () => {
    const server = await jsonAnswerServer();
    server.body = JSON.stringify({
      identities: [{ name: 'Emma', nested: { 'a\u001b[30;40mhidden\u001b[0m': 1, 'two\nlines': 2 } }],
    });
    try {
      const env = { BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 't', BANKCTL_CONFIG_DIR: tempDir() };
      const r = await runCli(['identities', 'list', '--fields', 'help'], { env, stdoutIsTTY: true });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/\x1b/);
      expect(r.stdout.split('\n')).toEqual(expect.arrayContaining(['nested.ahidden', 'nested.two lines']));
    } finally {
      await server.close();
    }
  });
});

describe('csv', () => {
  test('amounts as plain decimals with the currency in its own column', async () => {
    const r = await runCli([...list, '-o', 'csv'], { env: s.env });
    const [header, first] = r.stdout.split('\r\n');
    const cols = header!.split(',');
    expect(cols).toEqual(expect.arrayContaining(['amount', 'currency']));
    const cells = first!.split(',');
    expect(cells[cols.indexOf('amount')]).toMatch(/^-?\d+\.\d{2}$/);
    expect(cells[cols.indexOf('currency')]).toBe('SEK');
  });
});

describe('--jq', () => {
  test('filters json with jq (strings raw), no jq installed', async () => {
    const r = await runCli([...list, '--jq', '.[].amount.currencyCode'], { env: { ...s.env, PATH: '' } });
    expect(r.stderr).toMatch(more);
    expect(r.stdout).toBe('SEK\nSEK\nSEK\nSEK\nSEK\n');
  });

  test('exact numbers survive jq', async () => {
    const r = await runCli([...list, '--jq', '[.[].amount.value.unscaledValue] | length'], { env: s.env });
    expect(r.stdout).toBe('5\n');
  });

  test('-o ndjson applies it per line', async () => {
    const r = await runCli([...list, '-o', 'ndjson', '--jq', '{id, s: .status}'], { env: s.env });
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(Object.keys(JSON.parse(lines[0]!) as object)).toEqual(['id', 's']);
  });

  test("a jq error is exit 2 with jq's message", async () => {
    const r = await runCli([...list, '--jq', '.[] |||'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq: jq: error: syntax error/);
  });

  test('jq `debug` alone is not an error: its lines on stderr, nothing on stdout, exit 0 (as jq)', async () => {
    const r = await runCli([...list, '--jq', '.[] | .status | debug | empty'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const statuses = (await runCli([...list, '--jq', '.[].status'], { env: s.env })).stdout.trim().split('\n');
    expect(statuses).toHaveLength(5);
    const debug = statuses.map((st) => `["DEBUG:","${st}"]\n`).join('');
    expect(r.stderr.slice(0, debug.length)).toBe(debug);
    expect(r.stderr.slice(debug.length)).toMatch(more);
    const mixed = await runCli([...list, '--jq', '.[0] | debug | error("stop")'], { env: s.env });
    expect(mixed.code).toBe(2);
    // the debug line as jq writes it, then jq's error
    expect(mixed.stderr).toMatch(/^\["DEBUG:",\{.*\}\]\n.*--jq: jq: error.*stop/s);
  });

  test('--jq with -o table is a usage error', async () => {
    const r = await runCli([...list, '-o', 'table', '--jq', '.'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq filters json/);
  });
});

describe('search', () => {
  test('shows the same category names as transactions list', async () => {
    const tx = await runCli(
      ['transactions', 'list', '--limit', '100', '-o', 'csv', '--fields', 'id,categories.pfm.name'],
      {
        env: s.env,
      },
    );
    const byId = new Map(
      tx.stdout
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    const r = await runCli(['search', 'Fika', '-o', 'csv'], { env: s.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\r\n');
    const cols = lines[0]!.split(',');
    let compared = 0;
    for (const l of lines.slice(1)) {
      const cells = l.split(',');
      const name = byId.get(cells[cols.indexOf('id')]!);
      if (name === undefined) continue;
      expect(cells[cols.indexOf('category')]).toBe(name);
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });
});

// Colour follows the usual conventions: --no-color, NO_COLOR, FORCE_COLOR, and a terminal that
// says it cannot draw attributes (TERM=dumb, as chalk's supports-color reads it).
describe('colour', () => {
  const BOLD = '\x1b[1m';
  const profiles = (env: Record<string, string>, args: string[] = []) =>
    runCli(['config', 'profiles', '-o', 'table', ...args], {
      env: { BANKCTL_CONFIG_DIR: s.env.BANKCTL_CONFIG_DIR!, ...env },
      stdoutIsTTY: true,
      stderrIsTTY: true,
    });

  test.each([
    ['a terminal', {}, [], true],
    ['--no-color', {}, ['--no-color'], false],
    ['NO_COLOR', { NO_COLOR: '1' }, [], false],
    ['TERM=dumb', { TERM: 'dumb' }, [], false],
    ['TERM=dumb with FORCE_COLOR=1', { TERM: 'dumb', FORCE_COLOR: '1' }, [], true],
    ['FORCE_COLOR=0', { FORCE_COLOR: '0' }, [], false],
    ['FORCE_COLOR=false', { FORCE_COLOR: 'false' }, [], false],
  ] as const)('%s', async (_name, env, args, bold) => {
    const r = await profiles({ ...env }, [...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.includes(BOLD)).toBe(bold);
  });

  test('a table sent to a file or pipe from a terminal (stderr still one) has no escape sequences', async () => {
    const r = await runCli(['config', 'profiles', '-o', 'table'], {
      env: { BANKCTL_CONFIG_DIR: s.env.BANKCTL_CONFIG_DIR! },
      stdoutIsTTY: false,
      stderrIsTTY: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\x1b');
    const forced = await runCli(['config', 'profiles', '-o', 'table'], {
      env: { BANKCTL_CONFIG_DIR: s.env.BANKCTL_CONFIG_DIR!, FORCE_COLOR: '1' },
    });
    expect(forced.stdout).toContain(BOLD);
  });
});

// An empty table prints nothing on stdout; on a terminal a person is told so on stderr.
describe('an empty list', () => {
  test('on a terminal: "no results" on stderr, nothing on stdout; to a pipe: nothing', async () => {
    const env = { ...s.env, BANKCTL_USER: '' };
    const created = await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env });
    const user = JSON.parse(created.stdout).user_id as string;
    const onTty = await runCli(['transactions', 'list', '--user', user, '-o', 'table'], { env, stdoutIsTTY: true });
    expect(onTty.code, onTty.stderr).toBe(0);
    expect(onTty.stdout).toBe('');
    expect(onTty.stderr).toContain('no results');
    const accounts = await runCli(['accounts', 'list', '--user', user, '-o', 'table'], { env, stdoutIsTTY: true });
    expect(accounts.stderr).toContain('no results');
    const piped = await runCli(['transactions', 'list', '--user', user, '-o', 'table'], { env });
    expect(piped.stdout).toBe('');
    expect(piped.stderr).not.toContain('no results');
    // the sandbox's request log, filtered to nothing, prints lines of its own (not a table)
    const logs = await runCli(['sandbox', 'logs', '--status', '599', '-o', 'table'], { env, stdoutIsTTY: true });
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toBe('');
    expect(logs.stderr).toContain('no results');
  });
});

test('--fields given twice: the paths add up', async () => {
  const r = await runCli(
    ['transactions', 'list', '--limit', '2', '--fields', 'id', '--fields', 'status', '-o', 'csv'],
    {
      env: s.env,
    },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.split('\r\n')[0]).toBe('id,status');
});
