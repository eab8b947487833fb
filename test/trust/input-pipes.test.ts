// Input files that are pipes: a named FIFO whose writer has not come yet must not keep bankctl
// alive after Ctrl-C or a TERM (a blocked open on the thread pool did: "interrupted", then the
// process stayed until kill -9), and pipes that do get a writer (a FIFO written later, `<(cmd)`,
// /dev/stdin) are read whole, as before. Real processes against a loopback server.
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, tempDir, type CliResult } from '../helpers/cli.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer(() => reply(200, '{"ok":true}'));
});
afterAll(() => server.close());

function env(): Record<string, string> {
  return { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok-123456' };
}

async function fifo(): Promise<string> {
  const path = join(tempDir('bankctl-fifo-'), 'in.json');
  await run('mkfifo', [path]);
  return path;
}

/** Whether process pid holds the file open (a FIFO open without O_NONBLOCK never returns, so never shows). */
function holds(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** whether the process was seen holding the FIFO before the signal (so it was waiting on it) */
  waiting: boolean;
  /** whether it had to be killed: it did not end within 10 s of the signal */
  killed: boolean;
}

/**
 * bankctl args with `fifo` as its input and no writer: once it waits on the FIFO (or after 10 s), the
 * signal; then up to 10 s for it to end by itself.
 */
function signalWhileWaiting(args: string[], path: string, signal: NodeJS.Signals): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let waiting = false;
    let killed = false;
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    const started = Date.now();
    const poll = setInterval(() => {
      waiting = holds(child.pid!, path);
      if (!waiting && Date.now() - started < 10_000) return;
      clearInterval(poll);
      child.kill(signal);
      kill = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, 10_000);
    }, 50);
    let kill: NodeJS.Timeout | undefined;
    child.on('close', (code, sig) => {
      clearInterval(poll);
      clearTimeout(kill);
      resolve({ code, signal: sig, stderr, waiting, killed });
    });
  });
}

/**
 * bankctl started with `path` as an input, once it waits on the FIFO: it holds it open (a blocking
 * open shows nothing, so after 3 s it is taken as waiting), then 300 ms more with no writer, in
 * which a FIFO read too early would end the input empty. Killed if it is not done within 20 s.
 */
async function readerWaiting(
  args: string[],
  path: string,
  e: Record<string, string>,
): Promise<{ done: Promise<CliResult> }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...e },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code: code ?? 1, stdout, stderr });
    }),
  );
  const started = Date.now();
  while (!holds(child.pid!, path) && Date.now() - started < 3_000) await sleep(50);
  await sleep(300);
  return { done };
}

describe.skipIf(process.platform === 'win32')('input files that are pipes', () => {
  test('api --input: a FIFO no one writes to, then Ctrl-C or TERM: "interrupted", exit 130, the process gone', async () => {
    const [int, term] = await Promise.all(
      (['SIGINT', 'SIGTERM'] as const).map(async (signal) => {
        const path = await fifo();
        return signalWhileWaiting(['api', 'POST', '/api/v1/user/create', '--input', path], path, signal);
      }),
    );
    for (const [r, signal] of [
      [int, 'SIGINT'],
      [term, 'SIGTERM'],
    ] as const) {
      expect(r.killed, `still running 10 s after ${signal}; stderr: ${JSON.stringify(r.stderr)}`).toBe(false);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toBe('\ninterrupted\n');
      expect(r.waiting).toBe(true);
    }
  }, 60_000);

  test('every other input file a user names behaves the same (they read it on the main thread: Ctrl-C was not even seen)', async () => {
    const cases = [
      ['consents', 'v2', 'create', '--provider', 'p', '--for-user', 'u', '--parameters'],
      ['credentials', 'supplement', 'c1', '--user', 'u', '--answers'],
      ['connector', 'batch', '--user', 'u', '--file'],
      ['sandbox', 'load'],
      ['providers', 'list', '--ca-file'],
    ];
    const ended = await Promise.all(
      cases.map(async (args) => {
        const path = await fifo();
        return { args, ...(await signalWhileWaiting([...args, path], path, 'SIGTERM')) };
      }),
    );
    for (const r of ended) {
      const what = `${r.args.join(' ')}: ${r.stderr}`;
      expect(r.killed, `still running 10 s after SIGTERM: ${what}`).toBe(false);
      expect(r.code, what).toBe(130);
      expect(r.waiting, what).toBe(true);
    }
  }, 60_000);

  test('a FIFO whose writer comes later, `<(cmd)` and /dev/stdin are read whole, as before', async () => {
    const e = env();
    // the writer opens the FIFO after bankctl has waited on it a while: no writer yet is no empty body
    const path = await fifo();
    const body = `{"market":"SE","note":"${'x'.repeat(200_000)}","n":1.10}`;
    const later = await readerWaiting(['api', 'POST', '/api/v1/user/create', '--input', path], path, e);
    writeFileSync(path, body);
    const r = await later.done;
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen.at(-1)!.body).toBe(body);
    // process substitution (/dev/fd/N, a pipe whose writer is already there) and /dev/stdin on a
    // shell's pipe (node's own child stdin is a socket, which no one can open by name)
    const shell = (line: string) =>
      run('bash', ['-c', line.replace(/bankctl/, '"$0" "$1"'), process.execPath, BIN], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...e },
      });
    const sub = await shell(`bankctl api POST /api/v1/user/create --input <(sleep 0.3; printf '{"market":"NO"}')`);
    expect(JSON.parse(sub.stdout)).toEqual({ ok: true });
    expect(server.seen.at(-1)!.body).toBe('{"market":"NO"}');
    const stdin = await shell(`printf '{"market":"DK"}' | bankctl api POST /api/v1/user/create --input /dev/stdin`);
    expect(JSON.parse(stdin.stdout)).toEqual({ ok: true });
    expect(server.seen.at(-1)!.body).toBe('{"market":"DK"}');
    // a writer that closes without writing: an empty input, said so, and nothing sent
    const empty = await fifo();
    const sent = server.seen.length;
    const closed = await readerWaiting(['api', 'POST', '/api/v1/user/create', '--input', empty], empty, e);
    writeFileSync(empty, '');
    const c = await closed.done;
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`${empty} is not valid JSON`);
    expect(server.seen.length).toBe(sent);
  }, 60_000);
});
