// webhooks list|create|delete, connector webhooks list|create|delete and sandbox trigger, in-process.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';
import { addAccount } from '../helpers/store-fixtures.js';

let t: TestEnv;
const SECRET = 'table-secret-31337';

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => t.close());

describe('webhooks (API side)', () => {
  test('create with repeated --event and --secret-stdin, list as a table without the secret, delete by id', async () => {
    const c = await runCli(
      [
        'webhooks',
        'create',
        '--url',
        'https://hooks.example.com/in',
        '--event',
        'credentials:update',
        '--event',
        'transaction:create,transaction:update',
        '--secret-stdin',
        '-o',
        'json',
      ],
      { env: t.env, stdin: `${SECRET}\n` },
    );
    expect(c.code).toBe(0);
    const created = JSON.parse(c.stdout);
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/in',
      events: ['credentials:update', 'transaction:create', 'transaction:update'],
      global: true,
    });
    expect(c.stderr).toMatch(/registered webhook [0-9a-f]{32}/);

    for (const format of ['table', 'csv']) {
      const l = await runCli(['webhooks', 'list', '-o', format], { env: t.env });
      expect(l.code).toBe(0);
      expect(l.stdout).toContain(created.id);
      expect(l.stdout).toContain('https://hooks.example.com/in');
      expect(l.stdout).toContain('all users');
      expect(l.stdout).not.toContain(SECRET);
    }
    // even when asked for by name
    const asked = await runCli(['webhooks', 'list', '-o', 'csv', '--fields', 'id,secret'], { env: t.env });
    expect(asked.stdout).not.toContain(SECRET);

    const d = await runCli(['webhooks', 'delete', created.id, '--yes'], { env: t.env });
    expect(d.code).toBe(0);
    expect(JSON.parse((await runCli(['webhooks', 'list', '-o', 'json'], { env: t.env })).stdout)).toEqual([]);
    const again = await runCli(['webhooks', 'delete', created.id, '--yes'], { env: t.env });
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^error: DELETE \/api\/v1\/hooks\/[0-9a-f]+ failed: HTTP 404/);
  });

  test('with --user the webhook concerns that user; the verbose trace never shows the secret', async () => {
    const u = await runCli(['users', 'create', '--market', 'SE', '-o', 'json'], { env: t.env });
    const userId = JSON.parse(u.stdout).user_id;
    const c = await runCli(
      [
        'webhooks',
        'create',
        '--user',
        userId,
        '--url',
        'http://127.0.0.1:9/x',
        '--event',
        'signable-operation:update',
        '-v',
      ],
      {
        env: { ...t.env, BANKCTL_WEBHOOK_SECRET: SECRET },
      },
    );
    expect(c.code).toBe(0);
    expect(c.stderr).toMatch(/\* POST .*\/api\/v1\/hooks -> 200/);
    // stderr (trace and notices) never holds it; -o json gives the object as the service returned it
    expect(c.stderr).not.toContain(SECRET);
    expect(JSON.parse(c.stdout.slice(0, c.stdout.lastIndexOf('}') + 1))).toMatchObject({ userId, global: false });
    const mine = JSON.parse(
      (await runCli(['webhooks', 'list', '--user', userId, '-o', 'json'], { env: t.env })).stdout,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0].userId).toBe(userId);
    // the client sees every registration of its client, and the table says whom each concerns
    const all = await runCli(['webhooks', 'list', '-o', 'table'], { env: t.env });
    expect(all.stdout).toContain(`user ${userId}`);
    expect(all.stdout).not.toContain(SECRET);
    // named on the command line, the user needs no word; from the environment (or the profile) it does
    expect(c.stderr).toMatch(/registered webhook \S+ for signable-operation:update\n/);
    const implicit = await runCli(
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9/y', '--event', 'signable-operation:update'],
      { env: { ...t.env, BANKCTL_WEBHOOK_SECRET: SECRET, BANKCTL_USER: userId } },
    );
    expect(implicit.code).toBe(0);
    expect(implicit.stderr).toMatch(
      new RegExp(`for user ${userId} only \\(the acting user from the profile or BANKCTL_USER`),
    );
  });

  test("the service's 400 (plain http to a public host) is exit 2 with its message; flag mistakes are exit 2 before any request", async () => {
    const r = await runCli(
      ['webhooks', 'create', '--url', 'http://hooks.example.com/in', '--event', 'credentials:create', '--secret-stdin'],
      { env: t.env, stdin: SECRET },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTP 400: url must use https/);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(
      (
        await runCli(['webhooks', 'create', '--url', 'https://a.example/', '--secret-stdin'], {
          env: t.env,
          stdin: SECRET,
        })
      ).stderr,
    ).toMatch(/--event is required/);
    expect(
      (
        await runCli(['webhooks', 'create', '--url', 'https://a.example/', '--event', 'credentials:create'], {
          env: t.env,
        })
      ).stderr,
    ).toMatch(/a secret is required/);
    expect(
      (
        await runCli(['webhooks', 'create', '--url', 'nope', '--event', 'credentials:create', '--secret-stdin'], {
          env: t.env,
          stdin: SECRET,
        })
      ).code,
    ).toBe(2);
  });

  test('--help has examples', async () => {
    for (const verb of ['list', 'create', 'delete', 'listen']) {
      const h = await runCli(['webhooks', verb, '--help']);
      expect(h.code).toBe(0);
      expect(h.stdout).toMatch(/Examples:\n\s+\$ .*bankctl webhooks/);
    }
  });
});

describe('connector webhooks', () => {
  test('create (id from the Location header), list without the secret, delete; 404 for an unknown id', async () => {
    const c = await runCli(
      [
        'connector',
        'webhooks',
        'create',
        '--url',
        'https://hooks.example.com/c',
        '--event',
        'transaction:create',
        '--secret-stdin',
        '-o',
        'json',
      ],
      { env: t.env, stdin: SECRET },
    );
    expect(c.code).toBe(0);
    const created = JSON.parse(c.stdout);
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    const l = await runCli(['connector', 'webhooks', 'list', '-o', 'table'], { env: t.env });
    expect(l.stdout).toContain(created.id);
    expect(l.stdout).toContain('transaction:create');
    expect(l.stdout).not.toContain(SECRET);
    expect((await runCli(['connector', 'webhooks', 'delete', created.id], { env: t.env })).code).toBe(2);
    expect((await runCli(['connector', 'webhooks', 'delete', created.id, '--yes'], { env: t.env })).code).toBe(0);
    const gone = await runCli(['connector', 'webhooks', 'delete', created.id, '--yes'], { env: t.env });
    expect(gone.code).toBe(4);
    const bad = await runCli(
      ['connector', 'webhooks', 'create', '--url', 'ftp://x/', '--event', 'transaction:create', '--secret-stdin'],
      { env: t.env, stdin: SECRET },
    );
    expect(bad.code).toBe(2);
  });
});

describe('sandbox trigger', () => {
  test('prints the emitted event; an unknown event is exit 2 and an unknown user exit 4, both one line', async () => {
    // credentials of the newest user (the one the event concerns without --user)
    const { userId } = await userWithToken(t.sandbox, ['accounts:read']);
    addAccount(t.sandbox.store, userId, {}, 'cred-9');
    const r = await spawnCli(
      [
        'sandbox',
        'trigger',
        'credentials:update',
        '--status',
        'AUTHENTICATION_ERROR',
        '--credentials-id',
        'cred-9',
        '-o',
        'json',
      ],
      { env: t.env },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      event: 'credentials:update',
      orderKey: 'cred-9',
      content: { id: 'cred-9', status: 'AUTHENTICATION_ERROR' },
    });
    const bad = await runCli(['sandbox', 'trigger', 'credentials:explode'], { env: t.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown event "credentials:explode"/);
    const ghost = await runCli(['sandbox', 'trigger', 'transaction:create', '--user', 'ghost'], { env: t.env });
    expect(ghost.code).toBe(4);
    expect(ghost.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('--status with a transaction event is exit 2, not ignored', async () => {
    // it was exit 0 and the status nowhere in the event
    for (const event of ['transaction:create', 'transaction:update']) {
      const r = await runCli(['sandbox', 'trigger', event, '--status', 'UPDATED'], { env: t.env });
      expect(r.code, `${event}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(
        /status applies to credentials:create, credentials:update, signable-operation:update and refresh:finished only/,
      );
      expect(r.stdout).toBe('');
    }
  });

  test('--credentials-id the user has no credentials of is exit 4 naming it, nothing emitted', async () => {
    // it was put in the event as given, exit 0: an event about credentials that do not exist
    const { userId } = await userWithToken(t.sandbox, ['accounts:read']);
    const other = await userWithToken(t.sandbox, ['accounts:read']);
    addAccount(t.sandbox.store, userId, {}, 'cred-own');
    addAccount(t.sandbox.store, other.userId, {}, 'cred-other');
    const before = t.sandbox.context.events.recent.length;
    for (const [event, id] of [
      ['credentials:update', 'cred-typo'],
      ['transaction:create', 'cred-typo'],
      ['signable-operation:update', 'cred-other'],
      ['refresh:finished', 'cred-other'],
      ['account:updated', 'cred-typo'],
    ] as const) {
      const r = await runCli(['sandbox', 'trigger', event, '--user', userId, '--credentials-id', id], { env: t.env });
      expect(r.code, `${event}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toContain(`credentials ${id} not found for user ${userId}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
    expect(t.sandbox.context.events.recent.length).toBe(before);
    // without --user the event is about the newest user: the hint says to name the credentials' own
    const newest = await runCli(['sandbox', 'trigger', 'credentials:update', '--credentials-id', 'cred-own'], {
      env: t.env,
    });
    expect(newest.code).toBe(4);
    expect(newest.stderr).toMatch(/pass --user the credentials belong to/);
    // the user's own credentials: emitted about them
    const ok = await runCli(
      ['sandbox', 'trigger', 'credentials:update', '--user', userId, '--credentials-id', 'cred-own', '-o', 'json'],
      { env: t.env },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ userId, orderKey: 'cred-own', content: { id: 'cred-own' } });
  });

  test('a wrong --status names the statuses of that event; --help names every event that takes one', async () => {
    const r = await runCli(['sandbox', 'trigger', 'credentials:create', '--status', 'HAPPY'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/status of credentials:create must be one of CREATED, AUTHENTICATING,/);
    const help = await runCli(['sandbox', 'trigger', '--help'], { env: t.env });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'credentials:create, credentials:update, signable-operation:update and refresh:finished;',
    );
  });
});
