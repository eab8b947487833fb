// A refresh or authentication while another runs on the same credentials (one at a time): the 409
// said only the service's words. Now the hint says what to do: follow the running one with
// `credentials watch`, then try again.
import { expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readyTokenEnv, reply, scriptedServer } from '../helpers/scripted-server.js';

const ID = 'c0ffee0000000000000000000000beef';

test.each([
  ['refresh', ['refresh', ID]],
  ['refresh --wait', ['refresh', ID, '--wait']],
  ['authenticate', ['authenticate', ID]],
])('credentials %s answered 409 (another request runs): exit 5, how to follow the running one', async (_n, args) => {
  const service = await scriptedServer(() => (req, res, body) => {
    if (req.method === 'POST')
      return reply(
        409,
        JSON.stringify({ errorMessage: `another request is in progress on credentials ${ID}`, errorCode: 'conflict' }),
      )(req, res, body);
    reply(200, JSON.stringify({ id: ID, providerName: 'p', status: 'UPDATING', statusUpdated: 1 }))(req, res, body);
  });
  try {
    const r = await runCli(['credentials', ...args], { env: readyTokenEnv(service.url) });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('HTTP 409: another request is in progress');
    expect(r.stderr).toContain(`follow the one that runs with \`bankctl credentials watch ${ID}\`, then try again`);
  } finally {
    await service.close();
  }
});
