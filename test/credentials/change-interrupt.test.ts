// Ctrl-C while a request that changes credentials is in flight (supplement's answers, refresh,
// authenticate, update): it said only "interrupted", which reads as "nothing happened" when the
// service may have received the request and the bank be acting on it. Now: exit 130 at once, the
// request may have reached the service, and `bankctl credentials get ID` to see where they are.
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { never, reply, scriptedServer } from '../helpers/scripted-server.js';
import { run } from '../../src/main.js';
import { testIO } from '../../src/io.js';

const ID = 'c0ffee0000000000000000000000cafe';
const waiting = {
  id: ID,
  providerName: 'se-test-multi-supplemental',
  userId: 'u1',
  status: 'AWAITING_SUPPLEMENTAL_INFORMATION',
  statusUpdated: 1,
  supplementalInformation: JSON.stringify([{ name: 'code1', description: 'First code' }]),
};

test.each([
  ['supplement', ['supplement', ID, '--answer', 'code1=1234'], 'the answers for credentials'],
  ['refresh', ['refresh', ID], 'the refresh of credentials'],
  ['refresh --wait', ['refresh', ID, '--wait'], 'the refresh of credentials'],
  ['authenticate', ['authenticate', ID], 'the authentication of credentials'],
  ['update', ['update', ID, '--field', 'username=test-user'], 'the fields of credentials'],
])(
  'Ctrl-C during the request of credentials %s: exit 130 at once, the request may have reached the service, credentials get to check',
  async (_name, args, what) => {
    let changes = 0;
    const service = await scriptedServer(() => (req, res, body) => {
      if (req.method === 'POST' || req.method === 'PUT') {
        changes++;
        return never(req, res, body);
      }
      if ((req.url ?? '').startsWith('/api/v1/providers'))
        return reply(200, JSON.stringify({ providers: [] }))(req, res, body);
      reply(200, JSON.stringify(waiting))(req, res, body);
    });
    try {
      const io = testIO({
        env: { BANKCTL_BASE_URL: service.url, BANKCTL_TOKEN: 'test-token-123456', BANKCTL_CONFIG_DIR: tempDir() },
      });
      const p = run(['credentials', ...args, '--timeout', '20'], io);
      const deadline = Date.now() + 5000;
      while (changes === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(changes).toBe(1);
      const interrupted = Date.now();
      io.interrupt();
      const code = await Promise.race([p, new Promise((r) => setTimeout(() => r('still running'), 3000))]);
      expect(code).toBe(130);
      expect(Date.now() - interrupted).toBeLessThan(3000);
      expect(io.err()).toContain(`interrupted while ${what} ${ID}`);
      expect(io.err()).toContain('the request may have reached the service');
      expect(io.err()).toContain(`\`bankctl credentials get ${ID}\` shows their status`);
    } finally {
      await service.close();
    }
  },
  30_000,
);
