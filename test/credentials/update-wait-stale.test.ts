// `credentials update --wait`: the PUT starts a new round, but its response may still show the last
// round's final status (the service runs the round after it answers). That status is not the
// update's answer: the walk waits until the status moves on, and answers with the new round's end.
import { expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readyTokenEnv, reply, scriptedServer } from '../helpers/scripted-server.js';

const ID = 'c0ffee0000000000000000000000beef';
const state = (status: string, statusUpdated: number) =>
  JSON.stringify({ id: ID, providerName: 'p', userId: 'u1', status, statusUpdated });

test('update --wait whose PUT answers the previous UPDATED: the new round is walked to its own end', async () => {
  let gets = 0;
  const service = await scriptedServer(() => (req, res, body) => {
    if (req.method === 'PUT') return reply(200, state('UPDATED', 1))(req, res, body);
    gets++;
    const s = gets <= 2 ? state('UPDATED', 1) : gets <= 4 ? state('UPDATING', 2) : state('UPDATED', 3);
    reply(200, s)(req, res, body);
  });
  try {
    const r = await runCli(
      ['credentials', 'update', ID, '--field', 'username=u', '--wait', '--poll-interval', '10', '-o', 'json'],
      { env: readyTokenEnv(service.url) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'UPDATED', statusUpdated: 3 });
    expect(gets).toBeGreaterThanOrEqual(5);
  } finally {
    await service.close();
  }
});
