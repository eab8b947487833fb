import { describe, expect } from 'vitest';
import { newCmdUpdateLink } from '../../../src/commands/consents/update-link.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let credentialsId = '';

describe('consents update-link: flags', () => {
  optionCases('consents update-link', newCmdUpdateLink, [
    {
      name: 'the user from --user; defaults for the rest',
      args: ['c1', '--user', 'u1', '--market', 'se'],
      options: {
        credentialsId: 'c1',
        user: { userId: 'u1' },
        redirectUri: 'http://localhost:3000/callback',
        market: 'SE',
        idHint: 'u1',
      },
    },
    { name: 'no user', args: ['c1'], code: 2, stderr: 'which user? pass --user ID or --external-user ID' },
    {
      name: 'a redirect URI that is not a URL',
      args: ['c1', '--user', 'u1', '--redirect-uri', 'back'],
      code: 2,
      stderr: 'is not a URL',
    },
  ]);
});

describe('consents update-link: output', () => {
  cliCases('consents update-link', () => sb.env, [
    {
      name: 'the bare URL, for $(...)',
      before: async () => void (credentialsId = await connectTestBank(sb.env)),
      args: () => [credentialsId, '--state', 's-1'],
      code: 0,
      stdout: (out) => {
        const u = new URL(out.trim());
        expect(u.pathname).toBe('/link/1.0/transactions/update-consent');
        expect(u.searchParams.get('credentials_id')).toBe(credentialsId);
        expect(u.searchParams.get('state')).toBe('s-1');
        expect(u.searchParams.get('authorization_code')).toMatch(/\S{16,}/);
        // delegated to the link service's client, as the continuous-access guide says (not the app's)
        const code = sb.t.sandbox.store.codes.get(u.searchParams.get('authorization_code')!);
        expect(code?.clientId).toBe('df05e4b379934cd09963197cc855bfe9');
      },
    },
    {
      name: '-o json gives the URL and the id',
      args: () => [credentialsId, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ credentialsId, url: expect.stringContaining('http') }),
    },
    {
      // asked for, --jq and --fields shape the object -o json gives, rather than being ignored
      name: '--jq .credentialsId: jq reads the object -o json gives',
      args: () => [credentialsId, '--jq', '.credentialsId'],
      code: 0,
      stdout: (out) => expect(out).toBe(`${credentialsId}\n`),
    },
    {
      name: '--fields credentialsId: that field only',
      args: () => [credentialsId, '--fields', 'credentialsId'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual({ credentialsId }),
    },
    {
      name: 'no client id',
      args: () => [credentialsId],
      env: { BANKCTL_CLIENT_ID: undefined },
      code: 2,
      stderr: 'no client id',
    },
  ]);
});
