import { describe, expect } from 'vitest';
import { newCmdExchange } from '../../../src/commands/auth/exchange.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let code = '';

describe('auth exchange', () => {
  optionCases('auth exchange', newCmdExchange, [
    { name: 'a code', args: ['c0de'], options: { code: 'c0de' } },
    { name: 'the code is required', args: [], code: 2, stderr: "missing required argument 'code'" },
  ]);
  cliCases('auth exchange', () => sb.env, [
    {
      name: 'a user token for the code, cached in the profile',
      before: async () => {
        const g = await runCli(['auth', 'grant', '--scope', 'accounts:read', '-o', 'json'], { env: sb.env });
        code = JSON.parse(g.stdout).code;
      },
      // `--` first: the sandbox's codes are base64url and may begin with '-'
      args: () => ['-o', 'json', '--', code],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out)).toMatchObject({ access_token: expect.any(String), scope: 'accounts:read' }),
      after: async () => {
        const st = JSON.parse((await runCli(['auth', 'status', '-o', 'json'], { env: sb.env })).stdout);
        expect(st.tokens).toEqual(expect.arrayContaining([expect.objectContaining({ scope: 'accounts:read' })]));
      },
    },
    { name: 'a code used already is refused', args: () => ['--', code], code: 2 },
  ]);
});
