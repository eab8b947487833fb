// POST /connector/webhooks answers 204 and names the new webhook in Location: a Location whose
// percent-escape is malformed (a broken or hostile service) is no id, and the list names it instead.
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
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
