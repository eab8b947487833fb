import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let plain: TestEnv;
let tls: TestEnv;
beforeAll(async () => {
  plain = await startTestSandbox();
  tls = await startTestSandbox({ tls: { dir: tempDir() } });
});
afterAll(async () => {
  await plain.close();
  await tls.close();
});

async function freePort(): Promise<number> {
  return new Promise((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });
}

/** Off a terminal doctor prints json (the output rules); its checks as the lines a terminal shows. */
function human(stdout: string): string {
  const mark: Record<string, string> = { ok: '✓', fail: '✗', skip: '-' };
  return (JSON.parse(stdout) as Array<{ check: string; status: string; detail: string }>)
    .map((c) => `${mark[c.status]} ${c.check}: ${c.detail}`)
    .join('\n');
}

describe('bankctl doctor', () => {
  test('a profile never saved is the config check failing, exit 9, whatever the output format', async () => {
    // it was "✓ config file: ... (profile nosuch)" and then "✗ base URL: --profile: no profile
    // named ...": the ok line said the unsaved profile was in use
    const env = { BANKCTL_CONFIG_DIR: tempDir() };
    await spawnCli(['config', 'set', 'output', 'json'], { env });
    for (const format of [[], ['-o', 'json']]) {
      const r = await spawnCli(['doctor', '--profile', 'nosuch', ...format], { env });
      expect(r.code, `${format.join(' ')}: ${r.stderr}`).toBe(9);
      expect(human(r.stdout)).toMatch(/^✗ config file: --profile: no profile named "nosuch" is saved[^\n]*$/m);
    }
    // the same with no config file yet
    const fresh = await spawnCli(['doctor', '--profile', 'nosuch', '-o', 'json'], {
      env: { BANKCTL_CONFIG_DIR: tempDir() },
    });
    expect(fresh.code).toBe(9);
    expect(human(fresh.stdout)).toMatch(/^✗ config file: --profile: no profile named "nosuch" is saved[^\n]*$/m);
  });

  test('green against the sandbox: one line per check, exit 0', async () => {
    const port = await freePort();
    const r = await spawnCli(['doctor', '--listen-port', String(port)], { env: plain.env });
    expect(r.code).toBe(0);
    const lines = human(r.stdout).split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(
      [
        '✓ config directory',
        '✓ config file',
        '✓ proxy',
        '✓ base URL',
        '- TLS',
        '✓ clock',
        '✓ client credentials',
        '✓ connector token',
        '✓ webhook listener port',
      ].map((l) => (l === '✓ connector token' ? expect.stringMatching(/^[✓-] connector token$/) : l)),
    );
  });

  test('green over https with the CA and the pin; -o json', async () => {
    const port = await freePort();
    const r = await spawnCli(['doctor', '-o', 'json', '--listen-port', String(port), '--pin', tls.sandbox.pin!], {
      env: { ...tls.env, BANKCTL_CA_FILE: tls.sandbox.caFile! },
    });
    expect(r.code).toBe(0);
    const checks = JSON.parse(r.stdout);
    expect(checks.find((c: { check: string }) => c.check === 'TLS')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/pin matches/),
    });
  });

  test('red: untrusted TLS, wrong secret, a busy port and a config readable by others; exit 9', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => busy.once('listening', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await spawnCli(['doctor', '--listen-port', String(port)], { env: tls.env });
      expect(r.code).toBe(9);
      expect(human(r.stdout)).toMatch(/✗ base URL: .*not trusted/);
      expect(human(r.stdout)).toMatch(/✗ TLS: .*--ca-file/);
      expect(human(r.stdout)).toMatch(/✗ webhook listener port: port \d+ is not free/);
      expect(r.stderr).toMatch(/checks failed: base URL, TLS, webhook listener port/);

      const dir = tempDir();
      writeFileSync(join(dir, 'config.json'), '{"profiles":{}}');
      chmodSync(join(dir, 'config.json'), 0o644);
      const bad = await spawnCli(['doctor', '--listen-port', String(port)], {
        env: { ...plain.env, BANKCTL_CONFIG_DIR: dir, BANKCTL_CLIENT_SECRET: 'wrong-secret-123' },
      });
      expect(bad.code).toBe(9);
      expect(human(bad.stdout)).toMatch(/✗ config file: .* was readable by others/);
      expect(human(bad.stdout)).toMatch(/✗ client credentials: .*HTTP 401/);
      expect(bad.stdout).not.toContain('wrong-secret-123');
    } finally {
      busy.close();
    }
  });

  test('a config directory others may read: reported with the chmod that fixes it; one they may write: refused', async () => {
    const port = await freePort();
    const dir = tempDir();
    const env = { ...plain.env, BANKCTL_CONFIG_DIR: dir };
    expect((await spawnCli(['config', 'set', 'output', 'json'], { env })).code).toBe(0);
    chmodSync(dir, 0o755);
    const open = await spawnCli(['doctor', '--listen-port', String(port)], { env });
    expect(open.code).toBe(9);
    expect(human(open.stdout)).toContain(
      `✗ config directory: ${dir} is open to others (mode 755) where bankctl makes it 700: its files are 600, but their names show; \`chmod 700 ${dir}\``,
    );
    expect(human(open.stdout)).toMatch(/✓ config file: .* readable and private/);
    expect(open.stderr).toMatch(/check failed: config directory$/m);
    // what bankctl writes there is still private: a command that caches a secret works, 600
    expect((await spawnCli(['config', 'set', 'timeout', '9'], { env })).code).toBe(0);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);

    chmodSync(dir, 0o775);
    const writable = await spawnCli(['doctor', '--listen-port', String(port)], { env });
    expect(writable.code).toBe(9);
    expect(human(writable.stdout)).toMatch(
      new RegExp(`^✗ config directory: ${dir} can be written by others \\(mode 775\\).*\`chmod 700 ${dir}\``, 'm'),
    );
    // the refusal names its fix too
    expect(human(writable.stdout)).toMatch(/^✗ config file: .*refuses to use it.*chmod go-w/m);
    chmodSync(dir, 0o700);
    const fixed = await spawnCli(['doctor', '--listen-port', String(port)], { env });
    expect(human(fixed.stdout)).toMatch(/^✓ config directory: .* private \(mode 700\)$/m);
  });

  test('a missing config file is not a failure; an unreachable service is', async () => {
    const port = await freePort();
    const r = await spawnCli(['doctor', '--listen-port', String(port)], {
      env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(r.code).toBe(9);
    expect(human(r.stdout)).toMatch(/✓ config file: none yet/);
    expect(human(r.stdout)).toMatch(/✗ base URL: .*connection refused/);
    expect(human(r.stdout)).toMatch(/- client credentials: not configured/);
  });

  test('a setting no request can use is named as itself, not as the proxy', async () => {
    // it was "✗ proxy: timeout must be a number ..." beside no proxy at all
    for (const [name, value, want] of [
      ['BANKCTL_TIMEOUT', 'abc', /^✗ settings: timeout must be a number of seconds .*BANKCTL_TIMEOUT/m],
      ['BANKCTL_RETRIES', 'many', /^✗ settings: retries must be a whole number/m],
      ['BANKCTL_CA_FILE', join(tempDir(), 'missing.pem'), /^✗ settings: .*missing\.pem/m],
      ['HTTPS_PROXY', '::bad', /^✗ proxy: HTTPS_PROXY is not an http/m],
    ] as const) {
      const r = await spawnCli(['doctor'], {
        env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'https://127.0.0.1:1', [name]: value },
      });
      expect(r.code, `${name}: ${r.stderr}`).toBe(9);
      expect(human(r.stdout), name).toMatch(want);
      if (name !== 'HTTPS_PROXY') expect(human(r.stdout), name).not.toMatch(/✗ proxy/);
    }
  });

  test('every setting no request can use is a line of its own, judged as config explain judges it', async () => {
    // only the first one was named (fix it, run again, meet the next); a pin no request could use
    // and a "protected" read as not protected were not named at all
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { protected: 'ture' } } }), {
      mode: 0o600,
    });
    const r = await spawnCli(['doctor', '--pin', 'abc'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: 'https://127.0.0.1:1', BANKCTL_TIMEOUT: '-5' },
    });
    expect(r.code).toBe(9);
    const lines = human(r.stdout)
      .split('\n')
      .filter((l) => l.startsWith('✗'));
    expect(lines).toEqual([
      '✗ settings: timeout must be a number of seconds from 0.001 to 86400, got "-5" (from BANKCTL_TIMEOUT)',
      '✗ settings: pin "abc" is not a base64 SHA-256 (44 characters, ending in "=") (from --pin)',
      '✗ settings: protected must be true or false, got "ture" (read as not protected) (from profile default)',
    ]);
    expect(r.stderr).toMatch(/^error: 3 checks failed: settings$/m);
    // config explain marks the same three, in the same words
    const explained = await spawnCli(['config', 'explain', '--pin', 'abc', '-o', 'json'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_TIMEOUT: '-5' },
    });
    const marked = (JSON.parse(explained.stdout) as Array<{ problem?: string }>).filter((row) => row.problem);
    expect(marked.map((row) => row.problem)).toEqual(
      lines.map((l) => l.replace(/^✗ settings: (.*) \(from [^)]*\)$/, '$1')),
    );
  });

  test('a directory above the config directory that others may write is reported; a sticky one (/tmp) is not', async () => {
    // they could move the config directory aside and put their own in its place: it was "✓ private"
    const top = tempDir();
    const dir = join(top, 'a', 'bankctl');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(join(top, 'a'), 0o777);
    const env = { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: 'http://127.0.0.1:1' };
    const open = await spawnCli(['doctor', '-o', 'json'], { env });
    expect(open.code).toBe(9);
    expect(human(open.stdout)).toContain(
      `✗ config directory: ${dir} lies in ${join(top, 'a')}, which every user may write (mode 777): they could swap the config directory for their own; \`chmod go-w ${join(top, 'a')}\``,
    );
    // not made yet: where it would be made counts the same
    const notYet = await spawnCli(['doctor', '-o', 'json'], {
      env: { ...env, BANKCTL_CONFIG_DIR: join(top, 'a', 'x') },
    });
    expect(human(notYet.stdout)).toMatch(/^✗ config directory: .* lies in .*, which every user may write/m);
    chmodSync(join(top, 'a'), 0o1777);
    const sticky = await spawnCli(['doctor', '-o', 'json'], { env });
    expect(human(sticky.stdout)).toMatch(/^✓ config directory: .* private \(mode 700\)$/m);
    chmodSync(join(top, 'a'), 0o775);
    const group = await spawnCli(['doctor', '-o', 'json'], { env });
    expect(human(group.stdout)).toMatch(/^✗ config directory: .* which its group may write \(mode 775\)/m);
  });
});
