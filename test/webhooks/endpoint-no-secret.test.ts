// An Events v2 endpoint's secret comes only in the answer to its create. A create answered without
// it left an endpoint whose deliveries no one can verify: `webhooks endpoints create` said nothing
// and exited 0 (9 with --save-secret), `listen --register` left the endpoint behind with exit 9.
// Both are exit 7 (a 2xx that is not what the endpoint returns); the listener removes its endpoint.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTempDirs, runCli, spawnCli } from '../helpers/cli.js';
import { readyTokenEnv, scriptedServer } from '../helpers/scripted-server.js';

afterAll(() => cleanupTempDirs());

const endpoint = { id: 'ep-1', url: 'http://127.0.0.1:9/in', enabledEvents: ['refresh:finished'], disabled: false };

const serverWithout = () =>
  scriptedServer(() => (req, res) => {
    if (req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(endpoint));
    }
    if (req.method === 'DELETE') return res.writeHead(204).end();
    res.writeHead(404).end();
  });

describe('an endpoint created without its secret is exit 7', () => {
  test('webhooks endpoints create: exit 7 naming the endpoint to delete; the endpoint is still on stdout', async () => {
    const s = await serverWithout();
    try {
      const r = await runCli(
        ['webhooks', 'endpoints', 'create', '--url', endpoint.url, '--event', 'refresh:finished', '-o', 'json'],
        { env: readyTokenEnv(s.url) },
      );
      expect(r.code, r.stderr).toBe(7);
      expect(JSON.parse(r.stdout).id).toBe('ep-1');
      expect(r.stderr).toContain('created endpoint ep-1 but answered without its secret');
      expect(r.stderr).toContain('bankctl webhooks endpoints delete ep-1');
      expect(r.stderr).not.toContain('shown only now');
    } finally {
      await s.close();
    }
  });

  test('with --save-secret: the same exit 7, nothing saved', async () => {
    const s = await serverWithout();
    try {
      const env = readyTokenEnv(s.url);
      const r = await runCli(
        ['webhooks', 'endpoints', 'create', '--url', endpoint.url, '--event', 'refresh:finished', '--save-secret'],
        { env },
      );
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toContain('answered without its secret');
      const file = join(env.BANKCTL_CONFIG_DIR!, 'config.json');
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain('webhook-secret');
    } finally {
      await s.close();
    }
  });

  test('listen --register (Events v2): exit 7 before listening, and the endpoint is deleted again', async () => {
    const s = await serverWithout();
    try {
      const r = await spawnCli(
        ['webhooks', 'listen', '--port', '0', '--register', '--event', 'refresh:finished', '--wait-timeout', '5'],
        { env: readyTokenEnv(s.url) },
      );
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toContain('answered without its secret');
      expect(r.stderr).toContain('the endpoint was removed again');
      expect(r.stderr).not.toContain('listening on');
      expect(s.seen.map((x) => `${x.method} ${x.url}`)).toEqual([
        'POST /events/v2/webhook-endpoints',
        'DELETE /events/v2/webhook-endpoints/ep-1',
      ]);
    } finally {
      await s.close();
    }
  });
});
