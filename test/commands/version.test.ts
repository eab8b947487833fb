// `bankctl version` on a terminal (the table) against servers whose /version is not the sandbox's:
// no date, a date as text, nothing but a version. A troubleshooting command shows what it got; it
// used to die with exit 1 ("Invalid time value") when the date was not a number.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonAnswerServer } from '../helpers/scripted-server.js';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox } from '../helpers/sandbox.js';

let server: Awaited<ReturnType<typeof jsonAnswerServer>>;
beforeAll(async () => {
  server = await jsonAnswerServer();
});
afterAll(() => server.close());

const version = () =>
  runCli(['version', '-o', 'table', '--no-color'], {
    env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_RETRIES: '0' },
    stdoutIsTTY: true,
  });

describe('version, table', () => {
  test.each([
    ['no date, no commit', '{"version":"1.2","build":"b7"}', '1.2'],
    ['a date as text', '{"version":"2.0","commit":"abc","date":"2026-01-01"}', '2.0 (commit abc, 2026-01-01)'],
    [
      'epoch milliseconds',
      '{"version":"3","commit":"c","date":1767225600000}',
      '3 (commit c, 2026-01-01T00:00:00.000Z)',
    ],
    ['no version', '{}', '?'],
  ])('%s: exit 0 and what the server sent', async (_name, json, shown) => {
    server.body = json;
    const r = await version();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`server\\s+${shown.replace(/[().]/g, '\\$&')}`));
  });
});

describe('version, settings', () => {
  test.each([
    [['--timeout', 'abc'], {}, 'timeout must be a number of seconds'],
    [[], { BANKCTL_RETRIES: '-1' }, 'retries must be a whole number'],
    [['--base-url', 'ftp://x'], {}, 'is not an http(s) URL'],
    [['--profile', 'nope'], {}, 'no profile named "nope"'],
  ])('%j %j: exit 2, one error, nothing on stdout', async (flags, env, message) => {
    server.body = '{"version":"1.2"}';
    const r = await runCli([...flags, 'version'], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, ...env },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('server version unavailable');
    expect(r.stdout).toBe('');
  });

  test('an unreachable server is not an error: exit 0, server null', async () => {
    const r = await runCli(['version', '-o', 'json'], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9', BANKCTL_RETRIES: '0' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).server).toBeNull();
    expect(r.stderr).toContain('server version unavailable');
  });

  test('an unreachable server: the base URL that was asked is shown, in the table and in json', async () => {
    const env = { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9', BANKCTL_RETRIES: '0' };
    const table = await spawnCli(['version', '-o', 'table', '--no-color'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^server\s+unreachable$/m);
    expect(table.stdout).toMatch(/^baseUrl\s+http:\/\/127\.0\.0\.1:9$/m);
    const json = await spawnCli(['version', '-o', 'json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ server: null, baseUrl: 'http://127.0.0.1:9' });
  });
});

describe('version against a server whose certificate is not trusted', () => {
  test('exit 0, server null, and the notice says how to trust it (--ca-file), as other commands do', async () => {
    const tls = await startTestSandbox({ tls: { dir: tempDir() } });
    try {
      const r = await runCli(['version', '-o', 'json'], {
        env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: tls.sandbox.baseUrl, BANKCTL_RETRIES: '0' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).server).toBeNull();
      expect(r.stderr).toContain('server version unavailable: GET https://');
      expect(r.stderr).toContain('not trusted');
      expect(r.stderr).toContain('trust its CA with --ca-file FILE');
    } finally {
      await tls.close();
    }
  });
});
