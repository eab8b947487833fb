import { describe, expect } from 'vitest';
import { newCmdStatus } from '../../../src/commands/auth/status.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, not, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });

describe('auth status', () => {
  optionCases('auth status', newCmdStatus, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('auth status', () => sb.env, [
    {
      name: 'json: where each setting came from, secrets only as set, the cached tokens',
      before: async () => void (await runCli(['auth', 'token', '--scope', 'user:create'], { env: sb.t.env })),
      args: ['-o', 'json'],
      code: 0,
      stdout: [
        (out) =>
          expect(JSON.parse(out)).toMatchObject({
            profile: 'default',
            baseUrlSource: 'env',
            clientIdSource: 'env',
            clientSecret: 'set',
            user: { userId: sb.userId },
            tokens: [expect.objectContaining({ kind: 'client', scope: 'user:create', expired: false })],
          }),
        (out) => expect(out).not.toContain(sb.t.sandbox.clientSecret),
      ],
    },
    { name: 'a table, then the tokens', args: ['-o', 'table'], code: 0, stdout: ['1 cached', 'user:create'] },
    {
      name: 'each cached token says whose it is: the base URL and client it came from, current for these',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) =>
        expect(JSON.parse(out).tokens).toEqual([
          expect.objectContaining({
            scope: 'user:create',
            baseUrl: sb.env.BANKCTL_BASE_URL,
            clientId: sb.t.sandbox.clientId,
            current: true,
          }),
        ]),
    },
    {
      // a stopped sandbox's tokens (another base URL, another client) stay cached: listed as the
      // live one's, nothing told them apart
      name: 'a token of another base URL is marked not current, and counted so in the table',
      args: ['-o', 'table', '--base-url', 'http://127.0.0.1:9'],
      code: 0,
      stdout: [
        /^tokens\s+1 cached, 1 of another base URL, client or secret$/m,
        (out) =>
          expect(out).toMatch(
            new RegExp(`user:create .*${sb.env.BANKCTL_BASE_URL}\\s+${sb.t.sandbox.clientId}\\s+false`),
          ),
        (out) => expect(out).not.toContain(sb.t.sandbox.clientSecret),
      ],
    },
    {
      // the cache key holds the secret's fingerprint: after a rotation the old token is never sent,
      // and `current: true` said it was the one in use
      name: 'a token fetched with a secret since rotated is not current',
      args: ['-o', 'json'],
      env: { BANKCTL_CLIENT_SECRET: 'rotated-secret-0000' },
      code: 0,
      stdout: [
        (out) =>
          expect(JSON.parse(out).tokens).toEqual([
            expect.objectContaining({ scope: 'user:create', clientId: sb.t.sandbox.clientId, current: false }),
          ]),
        (out) => expect(out).not.toContain('rotated-secret-0000'),
      ],
    },
    {
      // every row says something: what is not set reads so, and a source row exists only for what is set
      name: 'a table without empty rows',
      args: ['-o', 'table'],
      env: { BANKCTL_CLIENT_ID: undefined, BANKCTL_CLIENT_SECRET: undefined, BANKCTL_USER: undefined },
      code: 0,
      stdout: [
        (out) => {
          const rows = out.split('\n').filter((l) => l.trim() !== '');
          expect(rows.filter((l) => !/^\S+\s+\S/.test(l))).toEqual([]);
          expect(out).toMatch(/^clientId\s+not set$/m);
          expect(out).toMatch(/^user\s+not set$/m);
          expect(out).toMatch(/^token\s+not set$/m);
          expect(out).not.toMatch(/^(tokenSource|clientIdSource)\b/m);
        },
      ],
    },
    {
      name: 'a token and a client that are set have their source rows',
      args: ['-o', 'table', '--token', 'tok-1234567890'],
      code: 0,
      stdout: [/^tokenSource\s+flag$/m, /^clientIdSource\s+env$/m],
    },
    {
      name: 'nothing configured',
      args: ['-o', 'json'],
      env: { BANKCTL_CLIENT_SECRET: undefined, BANKCTL_CONNECTOR_TOKEN: undefined },
      code: 0,
      stdout: [/"clientSecret": "not set"/, /"connectorToken": "not set"/, not('Token ')],
    },
  ]);
});
