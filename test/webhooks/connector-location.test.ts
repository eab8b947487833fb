// POST /connector/webhooks answers 204 and names the new webhook in Location: a Location whose
// percent-escape is malformed (a broken or hostile service) is no id, and the list names it instead.
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { scriptedServer } from '../helpers/scripted-server.js';

describe('connector webhooks create: the id from Location', () => {
  test('a malformed escape in Location: the id from the list, exit 0 (not "URI malformed", exit 1)', async () => {
    const s = await scriptedServer(() => (req, res) => {
      if (req.method === 'POST') return res.writeHead(204, { location: '/connector/webhooks/%E0%A4%A' }).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 'hook-9', url: 'http://127.0.0.1:9/h', events: ['transaction:create'] }]));
    });
    try {
      const r = await runCli(
        ['connector', 'webhooks', 'create', '--url', 'http://127.0.0.1:9/h', '--event', 'transaction:create'],
        {
          env: {
            BANKCTL_CONFIG_DIR: tempDir(),
            BANKCTL_BASE_URL: s.url,
            BANKCTL_CONNECTOR_TOKEN: 'connector-token-1',
            BANKCTL_WEBHOOK_SECRET: 'hook-secret-1',
            BANKCTL_RETRIES: '0',
          },
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('registered webhook hook-9');
      expect(JSON.parse(r.stdout).id).toBe('hook-9');
    } finally {
      await s.close();
    }
  });
});

// Without a Location the id comes from the list; a 204 that names no webhook either way was exit 0
// with no id (`-o json | jq -r .id` printed "null"), and `listen --register --register-via connector`
// went on with a registration it could never remove.
describe('connector webhooks create: no id anywhere is exit 7', () => {
  const HOOK_URL = 'http://127.0.0.1:9/h';
  const env = (url: string) => ({
    BANKCTL_CONFIG_DIR: tempDir(),
    BANKCTL_BASE_URL: url,
    BANKCTL_CONNECTOR_TOKEN: 'connector-token-1',
    BANKCTL_WEBHOOK_SECRET: 'hook-secret-1',
    BANKCTL_RETRIES: '0',
  });
  const noLocation = (listed: unknown[]) =>
    scriptedServer(() => (req, res) => {
      if (req.method === 'POST') return res.writeHead(204).end();
      if (req.method === 'DELETE') return res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(listed));
    });

  test('204 without Location and a list without the url: exit 7 naming what is missing, nothing on stdout', async () => {
    const s = await noLocation([{ id: 'hook-1', url: 'https://elsewhere.example/in', events: ['transaction:create'] }]);
    try {
      const r = await runCli(
        ['connector', 'webhooks', 'create', '--url', HOOK_URL, '--event', 'transaction:create', '-o', 'json'],
        { env: env(s.url) },
      );
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('POST /connector/webhooks answered 204');
      expect(r.stderr).toContain(
        `no webhook id (no Location header, and GET /connector/webhooks lists none with url ${HOOK_URL})`,
      );
      expect(r.stderr).toContain('bankctl connector webhooks list');
      expect(r.stderr).not.toContain('hook-secret-1');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await s.close();
    }
  });

  test('an older registration of the same url is not taken for the new one: the secret tells them apart', async () => {
    const s = await noLocation([
      { id: 'hook-new', url: HOOK_URL, secret: 'hook-secret-1', events: ['transaction:create'] },
      { id: 'hook-old', url: HOOK_URL, secret: 'someone-elses', events: ['credentials:update'] },
    ]);
    try {
      const r = await runCli(
        ['connector', 'webhooks', 'create', '--url', HOOK_URL, '--event', 'transaction:create', '-o', 'json'],
        { env: env(s.url) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe('hook-new');
    } finally {
      await s.close();
    }
  });

  test('listen --register --register-via connector: exit 7 before listening, not a registration left behind in silence', async () => {
    const s = await noLocation([]);
    try {
      const r = await spawnCli(
        [
          'webhooks',
          'listen',
          '--port',
          '0',
          '--register',
          '--register-via',
          'connector',
          '--event',
          'transaction:create',
          '--wait-timeout',
          '5',
        ],
        { env: env(s.url) },
      );
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toContain('no webhook id');
      expect(r.stderr).not.toContain('listening on');
    } finally {
      await s.close();
    }
  });
});
