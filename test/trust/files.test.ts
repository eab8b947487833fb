// The files bankctl writes and reads on this machine: written atomically through a temporary file
// no one can plant a link at, 0600 whatever the umask; the config directory refused when another
// user owns it or may write to it; no write lost between parallel processes; a full or read-only
// disk, or output that cannot be written, is one line with the contract's code.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, spawnCli, tempDir, type CliResult } from '../helpers/cli.js';
import { clientToken, raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount } from '../finance/helpers.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const mode = (f: string) => statSync(f).mode & 0o777;
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** bankctl in a shell with this umask (the permissive 000 shows what the code itself asks for). */
function withUmask(umask: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const cmd = `umask ${umask}; exec ${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')}`;
    const child = spawn('sh', ['-c', cmd], { env: { PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

async function reportId(): Promise<{ id: string; token: string }> {
  const scopes = ['account-verification-reports:write', 'account-verification-reports:read'];
  const u = await userWithToken(t.sandbox, scopes);
  addAccount(t.sandbox.store, u.userId);
  const r = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/account-verification-reports', {
    headers: { authorization: `Bearer ${u.token}` },
    json: {},
  });
  return { id: r.json().id, token: u.token };
}

describe('atomic, private writes', () => {
  test('reports pdf -O: a symlink at the target is replaced, not followed; the file is 0600 under umask 000', async () => {
    const { id, token } = await reportId();
    const dir = tempDir();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const target = join(dir, 'report.pdf');
    symlinkSync(victim, target);
    const r = await withUmask('000', ['reports', 'pdf', id, '-O', target], { ...t.env, BANKCTL_TOKEN: token });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(target).subarray(0, 5).toString()).toBe('%PDF-');
    expect(mode(target)).toBe(0o600);
    // nothing left behind: no temporary file
    expect(readdirSync(dir).sort()).toEqual(['report.pdf', 'victim.txt']);
  });

  test('config and token cache: 0600 in a 0700 directory under umask 000', async () => {
    const dir = join(tempDir(), 'conf');
    const r = await withUmask('000', ['users', 'create', '--market', 'SE'], { ...t.env, BANKCTL_CONFIG_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    const set = await withUmask('000', ['config', 'set', 'output', 'json'], { ...t.env, BANKCTL_CONFIG_DIR: dir });
    expect(set.code, set.stderr).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
    expect(mode(join(dir, 'tokens.json'))).toBe(0o600);
  });

  test("a copy of the config left by a writer killed mid-write (a dead pid) is removed by the next write; a live writer's is not", async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles":{"default":{"client-secret":"s3cret"}}}\n', { mode: 0o600 });
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => gone.on('exit', r));
    const temp = (owner: string) => join(dir, `.config.json.${owner}${'ab12'.repeat(4)}.tmp`);
    const dead = temp(`${gone.pid}.`);
    const live = temp(`${process.pid}.`);
    const oldUnnamed = temp('').replace('ab12', 'cd34');
    const newUnnamed = temp('');
    for (const f of [dead, live, oldUnnamed, newUnnamed])
      writeFileSync(f, '{"profiles":{"default":{"client-secret":"s3cret"}}}\n', { mode: 0o600 });
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(oldUnnamed, twoHoursAgo, twoHoursAgo);
    const r = await spawnCli(['config', 'set', 'output', 'json'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(oldUnnamed)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(newUnnamed)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['config.json', basename(live), basename(newUnnamed)].sort());
  });

  test("--data snapshots: a link planted at the pid-named temporary name is not followed; a killed sandbox's temporary files go at the next snapshot", async () => {
    const dir = tempDir();
    const data = join(dir, 'state.json');
    const victim = join(tempDir(), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    // the earlier release's name for this process's snapshot
    symlinkSync(victim, join(dir, `.state.json.${process.pid}.tmp`));
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => gone.on('exit', r));
    const left = [`.state.json.${gone.pid}.tmp`, `.state.json.${gone.pid}.${'ab12'.repeat(4)}.tmp`];
    for (const name of left) writeFileSync(join(dir, name), 'a snapshot with client secrets\n', { mode: 0o600 });
    const s = await startTestSandbox({ dataFile: data });
    try {
      // a change: the next snapshot is written
      await clientToken(s.sandbox, ['user:create']);
    } finally {
      await s.close();
    }
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(data).isFile()).toBe(true);
    expect(mode(data)).toBe(0o600);
    expect(readFileSync(data, 'utf8')).toContain(s.sandbox.clientId);
    for (const name of left) expect(existsSync(join(dir, name))).toBe(false);
  });

  test('sandbox start: a link planted at a guessable temporary name does not receive the client secret', async () => {
    const dir = tempDir();
    const victim = join(tempDir(), 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '-o', 'json'], {
      env: { PATH: process.env.PATH, BANKCTL_CONFIG_DIR: dir },
    });
    // the names an attacker could guess: the state file plus the pid, plus ".tmp"
    for (const name of [`sandbox.json.${child.pid}.tmp`, `sandbox.json.tmp`]) symlinkSync(victim, join(dir, name));
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const ready = JSON.parse(line);
    child.kill('SIGINT');
    await new Promise((r) => child.on('exit', r));
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(victim, 'utf8')).not.toContain(ready.clientSecret);
  });
});

describe('a config directory that is not private is refused', () => {
  test('a token cache or sandbox state readable by others (an older version, a hand) is made 0600 by any command; one others may write is still refused', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const tokens = join(dir, 'tokens.json');
    const state = join(dir, 'sandbox.json');
    writeFileSync(tokens, '{"default":{}}\n');
    writeFileSync(state, JSON.stringify({ baseUrl: 'http://127.0.0.1:1', clientId: 'c', clientSecret: 's', pid: 1 }));
    for (const f of [tokens, state]) chmodSync(f, 0o644);
    const r = await spawnCli(['config', 'list'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect([mode(tokens), mode(state)]).toEqual([0o600, 0o600]);
    chmodSync(tokens, 0o666);
    const w = await spawnCli(['auth', 'status'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(w.code).toBe(2);
    expect(w.stderr).toContain(tokens);
    expect(mode(tokens)).toBe(0o666);
  });

  test('a sandbox.log others may read is made 0600 by the next --detach', async () => {
    const dir = tempDir();
    const env = { BANKCTL_CONFIG_DIR: dir };
    const log = join(dir, 'sandbox.log');
    writeFileSync(log, 'an older run\n');
    chmodSync(log, 0o644);
    const r = await spawnCli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json'], { env });
    try {
      expect(r.code, r.stderr).toBe(0);
      expect(mode(log)).toBe(0o600);
    } finally {
      await spawnCli(['sandbox', 'stop'], { env });
    }
  });

  test('writable by others: the directory, then a file, named; exit 2; nothing changed', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const r = await spawnCli(['config', 'set', 'output', 'json'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(dir);
    expect(r.stderr).toMatch(/can be written by/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    chmodSync(dir, 0o700);
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles":{}}', { mode: 0o620 });
    chmodSync(file, 0o620);
    const f = await spawnCli(['config', 'list'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(f.code).toBe(2);
    expect(f.stderr).toContain(file);
  });

  test('owned by another user: refused, naming it', async () => {
    let dir: string;
    if (process.getuid?.() === 0) {
      dir = tempDir();
      chownSync(dir, 65534, 65534);
    } else dir = '/'; // owned by root, and this is not root
    const r = await spawnCli(['config', 'list'], { env: { BANKCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${dir.replace(/[/.]/g, '\\$&')} is owned by another user`));
  });

  test("another user's sandbox state in a shared directory: no client secret goes to their server", async () => {
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const evil = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = tempDir();
    chmodSync(dir, 0o1777); // like /tmp: anyone may put a file there
    writeFileSync(
      join(dir, 'sandbox.json'),
      JSON.stringify({
        baseUrl: evil,
        linkUrl: `${evil}/link`,
        clientId: 'c',
        clientSecret: 'theirs',
        connectorToken: 't',
      }),
    );
    const r = await spawnCli(['users', 'create', '--market', 'SE'], {
      env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_CLIENT_SECRET: 'my-own-client-secret' },
    });
    await new Promise((res) => server.close(res));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(dir);
    expect(seen).toEqual([]);
  });
});

describe('parallel processes lose no write', () => {
  test('20 parallel `config set` in 20 profiles keep 20 profiles', async () => {
    const dir = tempDir();
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        spawnCli(['config', 'set', 'output', 'json', '--profile', `p${i}`], { env: { BANKCTL_CONFIG_DIR: dir } }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(20).fill(0));
    const profiles = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles;
    expect(Object.keys(profiles).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  test('20 parallel `auth token` leave a readable cache holding every token', async () => {
    const dir = tempDir();
    const env = { ...t.env, BANKCTL_CONFIG_DIR: dir };
    // twenty saved profiles (a profile that is not saved is refused), each with its own cache entry
    const profiles = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, {}]));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
    const scopes = ['user:create', 'providers:read', 'authorization:grant', 'user:create,providers:read', 'user:read'];
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        spawnCli(['auth', 'token', '--scope', scopes[i % scopes.length]!, '--profile', `p${i}`], { env }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(20).fill(0));
    const cache = JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8'));
    expect(Object.keys(cache)).toHaveLength(20);
    for (let i = 0; i < 20; i++) {
      const mine = Object.values(cache[`p${i}`]) as Array<{ accessToken: string }>;
      expect(mine.map((x) => x.accessToken)).toEqual([runs[i]!.stdout.trim()]);
    }
  });
});

describe('a full disk, a read-only disk, output that cannot be written', () => {
  test('stdout to /dev/full: one line, exit 8', async () => {
    const full = openSync('/dev/full', 'w');
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'config', 'explain', '-o', 'json'], {
        env: { PATH: process.env.PATH, BANKCTL_CONFIG_DIR: tempDir() },
        stdio: ['ignore', full, 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (c) => (stderr += c));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    closeSync(full);
    expect(r.code).toBe(8);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: cannot write to standard output: .*ENOSPC/);
  });

  test('-O /dev/full: one line naming the file and the reason, exit 2', async () => {
    const { id, token } = await reportId();
    const r = await spawnCli(['reports', 'pdf', id, '-O', '/dev/full'], { env: { ...t.env, BANKCTL_TOKEN: token } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: cannot write the report \/dev\/full: no space left .*\(ENOSPC\)/);
  });

  // A small file system of our own needs a private mount namespace (root with CAP_SYS_ADMIN).
  const mountable =
    process.platform === 'linux' &&
    spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs tmpfs ${q(tempDir())}`], { stdio: 'ignore' }).status === 0;
  if (!mountable) process.stderr.write('skipped: full and read-only config disks: cannot mount a tmpfs here\n');
  test.skipIf(!mountable)('config on a full disk, then on a read-only one: one line, exit 2, no stack', async () => {
    const dir = tempDir();
    const mnt = join(dir, 'conf');
    mkdirSync(mnt, { mode: 0o700 });
    const bankctl = `env BANKCTL_CONFIG_DIR=${q(mnt)} ${q(process.execPath)} ${q(BIN)}`;
    const script = [
      `mount -t tmpfs -o size=16k,mode=0700 tmpfs ${q(mnt)}`,
      `${bankctl} config set output json --quiet`,
      `dd if=/dev/zero of=${q(join(mnt, 'fill'))} bs=1k count=64 2>/dev/null`,
      `${bankctl} config set base-url http://127.0.0.1:9 --profile other; echo "FULL=$?"`,
      `mount -o remount,ro ${q(mnt)}`,
      `${bankctl} config set output csv; echo "RO=$?"`,
      `${bankctl} config get output; echo "READ=$?"`,
    ].join('\n');
    const r = spawnSync('unshare', ['-m', 'sh', '-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    const lines = r.stderr.trim().split('\n');
    expect(r.stdout).toContain('FULL=2');
    expect(r.stdout).toContain('RO=2');
    expect(r.stdout).toMatch(/json\nREAD=0/);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: cannot write .*config\.json(\.lock)?: no space left .*\(ENOSPC\)$/);
    expect(lines[1]).toMatch(/^error: cannot write .*config\.json\.lock: the file system is read-only \(EROFS\)$/);
  });

  /** A shell script in a private mount namespace; not spawnSync: the sandbox answering it runs in this process. */
  const inMountNamespace = (script: string) =>
    new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const child = spawn('unshare', ['-m', 'sh', '-c', script], { env: { PATH: process.env.PATH } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('close', () => resolve({ stdout, stderr }));
    });

  test.skipIf(!mountable)(
    'users create --use on a read-only config: the new user on stdout, and the error says it was created',
    async () => {
      const token = await clientToken(t.sandbox, ['user:create']);
      const mnt = join(tempDir(), 'conf');
      mkdirSync(mnt, { mode: 0o700 });
      const env = `env BANKCTL_CONFIG_DIR=${q(mnt)} BANKCTL_BASE_URL=${q(t.sandbox.baseUrl)} BANKCTL_TOKEN=${q(token)}`;
      const script = [
        `mount -t tmpfs -o size=16k,mode=0700,ro tmpfs ${q(mnt)}`,
        `${env} ${q(process.execPath)} ${q(BIN)} users create --market SE --use -o json; echo "RC=$?"`,
      ].join('\n');
      const r = await inMountNamespace(script);
      expect(r.stdout, r.stderr).toContain('RC=2');
      const id = JSON.parse(r.stdout.slice(0, r.stdout.indexOf('RC='))).user_id as string;
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(r.stderr).toMatch(new RegExp(`^error: user ${id} was created, but the profile could not be saved: `, 'm'));
    },
  );

  test.skipIf(!mountable)(
    'sandbox start on a read-only config: exit 2, not a sandbox left listening on a port nobody was told',
    async () => {
      const mnt = join(tempDir(), 'conf');
      mkdirSync(mnt, { mode: 0o700 });
      const script = [
        `mount -t tmpfs -o size=16k,mode=0700,ro tmpfs ${q(mnt)}`,
        // timeout's 124 would be the hang this is about
        `BANKCTL_CONFIG_DIR=${q(mnt)} timeout 20 ${q(process.execPath)} ${q(BIN)} sandbox start --port 0 -o json; echo "RC=$?"`,
      ].join('\n');
      const r = await inMountNamespace(script);
      expect(r.stdout, r.stderr).toContain('RC=2');
      expect(r.stderr).toMatch(/^error: cannot write .*sandbox\.json.*EROFS/m);
    },
  );

  test.skipIf(!mountable)(
    'a read-only config: the client token is fetched but cannot be cached, and the command still works',
    async () => {
      const mnt = join(tempDir(), 'conf');
      mkdirSync(mnt, { mode: 0o700 });
      const sb = t.sandbox;
      const env = `env BANKCTL_CONFIG_DIR=${q(mnt)} BANKCTL_BASE_URL=${q(sb.baseUrl)} BANKCTL_CLIENT_ID=${q(sb.clientId)} BANKCTL_CLIENT_SECRET=${q(sb.clientSecret)}`;
      const script = [
        `mount -t tmpfs -o size=16k,mode=0700,ro tmpfs ${q(mnt)}`,
        `${env} ${q(process.execPath)} ${q(BIN)} users create --market SE -o json; echo "RC=$?"`,
      ].join('\n');
      const r = await inMountNamespace(script);
      expect(r.stdout, r.stderr).toContain('RC=0');
      expect(JSON.parse(r.stdout.slice(0, r.stdout.indexOf('RC='))).user_id).toMatch(/^[0-9a-f]{32}$/);
      expect(r.stderr).toMatch(
        /^warning: the token was not cached \(cannot write .*EROFS\).*fetched again next time$/m,
      );
      expect(r.stderr).not.toContain(sb.clientSecret);
    },
  );
});
