// Ctrl-C while `credentials connect` (or `credentials create`) creates the credentials: the POST is cut off at once, and the
// message says they may exist already (the service may have made them) and how to find them.
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { never, reply, scriptedServer } from '../helpers/scripted-server.js';
import { run } from '../../src/main.js';
import { testIO } from '../../src/io.js';

test.each([
  ['connect'],
  // `credentials create` said only "interrupted", when the credentials may exist by then
  ['create'],
])(
  'Ctrl-C during the create request of credentials %s: exit 130 at once, naming credentials list',
  async (verb) => {
    let posted = 0;
    const provider = {
      name: 'se-test-password',
      displayName: 'Test Password',
      market: 'SE',
      currency: 'SEK',
      type: 'TEST',
      status: 'ENABLED',
      credentialsType: 'PASSWORD',
      fields: [{ name: 'username', description: 'Username', optional: false }],
    };
    const service = await scriptedServer(() => (req, res, body) => {
      if (req.method === 'POST') {
        posted++;
        return never(req, res, body);
      }
      reply(200, JSON.stringify({ providers: [provider] }))(req, res, body);
    });
    try {
      const io = testIO({
        env: { BANKCTL_BASE_URL: service.url, BANKCTL_TOKEN: 'test-token-123456', BANKCTL_CONFIG_DIR: tempDir() },
      });
      const p = run(
        ['credentials', verb, '--provider', 'se-test-password', '--field', 'username=u', '--timeout', '20'],
        io,
      );
      const deadline = Date.now() + 5000;
      while (posted === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(posted).toBe(1);
      const interrupted = Date.now();
      io.interrupt();
      const code = await Promise.race([p, new Promise((r) => setTimeout(() => r('still running'), 3000))]);
      expect(code).toBe(130);
      expect(Date.now() - interrupted).toBeLessThan(3000);
      expect(io.err()).toContain(
        'interrupted while the credentials for se-test-password were being created: they may exist on the service now',
      );
      expect(io.err()).toContain('`bankctl credentials list` shows them');
    } finally {
      await service.close();
    }
  },
  30_000,
);
