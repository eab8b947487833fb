// A verb that changes data checks its output options before it sends anything, and an output
// option that can only fail on the answer does not lose that answer: `--fields help`, a --jq that
// does not compile and --jq with -o csv are exit 2 with nothing sent; a --fields path the answer
// lacks, or a jq error at run time, after the change was made, print the whole answer and say the
// change was done (exit 2 alone read "nothing happened", and a retried transfer moves money twice).
import { afterEach, describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

const OP = {
  id: 'o1',
  underlyingId: 't1',
  type: 'TRANSFER',
  status: 'CREATED',
  userId: 'u1',
  credentialsId: 'c1',
};
const SOURCE = `platform://${'a'.repeat(32)}`;
const TRANSFER = ['transfers', 'create', '--source', SOURCE, '--destination', 'se://33001984', '--amount', '1'];

let close: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of close) await c();
  close = [];
});

async function service() {
  const s = await scriptedServer(() => reply(200, JSON.stringify(OP)));
  close.push(s.close);
  const env = {
    BANKCTL_BASE_URL: s.url,
    BANKCTL_TOKEN: 'token-1',
    BANKCTL_CONFIG_DIR: tempDir(),
    BANKCTL_RETRIES: '0',
  };
  return { seen: s.seen, run: (args: string[]) => runCli([...TRANSFER, '--currency', 'SEK', ...args], { env }) };
}

describe('output options of a verb that changes data', () => {
  test.each([
    [
      ['--fields', 'help'],
      '--fields help lists the paths of an answer, and bankctl transfers create changes data: nothing was sent',
    ],
    [['--fields'], '--fields help lists the paths of an answer'],
    [['--jq', '.foo | bad('], 'syntax error'],
    [['--jq', 'nosuch(1)'], 'nosuch/1 is not defined'],
    [['--jq', '.id', '-o', 'csv'], '--jq filters json output, not -o csv'],
  ])('%j: exit 2 before anything is sent', async (args, message) => {
    const s = await service();
    const r = await s.run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(s.seen).toEqual([]);
  });

  test('a --jq that compiles but would never end is not run by the check', async () => {
    const s = await service();
    const r = await s.run(['--jq', '.id']);
    expect([r.code, r.stdout]).toEqual([0, 'o1\n']);
    // `repeat(.)` never ends on any input: checked before sending, it must only be compiled
    const loop = await s.run(['--jq', 'first(repeat(.) | .status)']);
    expect(loop.code, loop.stderr).toBe(0);
    expect(loop.stdout).toBe('CREATED\n');
  });

  test('a --fields path the answer lacks, after the change: the whole answer on stdout, and the change said', async () => {
    const s = await service();
    const r = await s.run(['--fields', 'id,amount']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual(OP);
    expect(r.stderr).toContain(
      '--fields: unknown path "amount" (bankctl transfers create was done: its whole answer is on stdout)',
    );
    expect(s.seen.filter((x) => x.method === 'POST')).toHaveLength(1);
  });

  test('a jq error at run time, after the change: the whole answer on stdout, and the change said', async () => {
    const s = await service();
    const r = await s.run(['--jq', '.id | error("boom")']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual(OP);
    expect(r.stderr).toContain('boom (bankctl transfers create was done: its whole answer is on stdout)');
  });

  test('a read keeps its plain errors: nothing was changed', async () => {
    const s = await scriptedServer(() => reply(200, JSON.stringify({ id: 'a1', name: 'x' })));
    close.push(s.close);
    const env = { BANKCTL_BASE_URL: s.url, BANKCTL_TOKEN: 'token-1', BANKCTL_CONFIG_DIR: tempDir() };
    const r = await runCli(['accounts', 'get', 'a1', '--fields', 'nope'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('was done');
  });
});
