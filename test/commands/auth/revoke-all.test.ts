import { describe, expect } from 'vitest';
import { newCmdRevokeAll } from '../../../src/commands/auth/revoke-all.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { raw } from '../../helpers/sandbox.js';

const sb = useSandbox({ user: true });
let token = '';

describe('auth revoke-all', () => {
  optionCases('auth revoke-all', newCmdRevokeAll, [
    { name: 'a user', args: ['--yes', '--user', 'u1'], options: { user: { userId: 'u1' } } },
    { name: 'no user', args: ['--yes'], code: 2, stderr: 'which user?' },
  ]);
  cliCases('auth revoke-all', () => sb.env, [
    {
      name: "the user's tokens stop working and leave the cache",
      before: async () => {
        token = (await runCli(['auth', 'token', '--scope', 'accounts:read'], { env: sb.env })).stdout.trim();
      },
      args: ['--yes'],
      code: 0,
      stderr: /revoked all tokens of user [0-9a-f]{32}/,
      after: async () => {
        const r = await raw(sb.t.sandbox.baseUrl, 'GET', '/api/v1/accounts/list', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(r.status).toBe(401);
        const st = JSON.parse((await runCli(['auth', 'status', '-o', 'json'], { env: sb.env })).stdout);
        expect(st.tokens.filter((t: { user?: string }) => t.user === `id:${sb.userId}`)).toEqual([]);
      },
    },
    {
      name: 'a token cached by auth exchange is kept, and the notice says so',
      before: async () => {
        const grant = await runCli(['auth', 'grant', '--scope', 'accounts:read', '-o', 'json'], { env: sb.env });
        const { code } = JSON.parse(grant.stdout) as { code: string };
        token = JSON.parse(
          (await runCli(['auth', 'exchange', code, '-o', 'json'], { env: sb.env })).stdout,
        ).access_token;
      },
      args: ['--yes'],
      code: 0,
      stderr:
        /revoked all tokens of user [0-9a-f]{32}; 1 cached user token from auth exchange, link or refresh kept \(bankctl cannot tell whose it is\)/,
      after: async () => {
        // it was this user's: the service refuses it now, and auth status still lists it
        const r = await raw(sb.t.sandbox.baseUrl, 'GET', '/api/v1/accounts/list', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(r.status).toBe(401);
        const st = JSON.parse((await runCli(['auth', 'status', '-o', 'json'], { env: sb.env })).stdout);
        expect(st.tokens.filter((t: { user?: string }) => t.user?.startsWith('exchanged:'))).toHaveLength(1);
      },
    },
    { name: 'an unknown user is 4', args: ['--yes', '--user', 'f'.repeat(32)], code: 4 },
  ]);
});
