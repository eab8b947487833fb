// `smoke --provider NAME` completes with every kind of test provider the sandbox has; against a
// service that is not the sandbox, a provider that needs a person (a redirect) is refused with
// exit 2 before anything is created.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { cliCases, useSandbox } from '../helpers/commands.js';

const sb = useSandbox({ sandbox: { authDelayMs: 30 } });

const passed = (out: string) => {
  const results = JSON.parse(out) as Array<{ name: string; status: string; detail: string }>;
  const connect = results.find((r) => r.name === 'connect test provider')!;
  expect(connect, JSON.stringify(results)).toMatchObject({ status: 'passed' });
  expect(results.filter((r) => r.status === 'failed')).toEqual([]);
};

describe('every test provider type completes on the sandbox', () => {
  const kinds: Array<[string, string]> = [
    ['password', 'se-test-other-password'],
    ['eID', 'se-test-other-eid-successful'],
    ['multi-supplemental', 'se-test-other-multi-supplemental'],
    ['embedded (a one-time code)', 'se-test-open-banking-embedded'],
    ['redirect', 'se-test-open-banking-redirect'],
    ['third-party app', 'se-test-other-third-party-app-successful'],
    ['decoupled', 'se-test-open-banking-decoupled-successful'],
  ];
  cliCases(
    'smoke',
    () => sb.t.env,
    kinds.map(([kind, provider]) => ({
      name: `${kind}: ${provider}`,
      args: ['--provider', provider, '--connect-timeout', '30'],
      code: 0,
      stdout: passed,
    })),
  );
  cliCases('smoke', () => sb.t.env, [
    {
      name: 'a failing eID provider fails the connect check in eID words (exit 9)',
      args: ['--provider', 'se-test-other-eid-failing-cancelled'],
      code: 9,
      stderr: /connect test provider" failed: credentials ended in AUTHENTICATION_ERROR: .*cancelled/,
    },
    {
      // a user the profile still names after `sandbox reset` deleted it: the provider lookup failed
      // on its grant, and the eID provider was sent a password ("unknown field "password"", exit 9)
      name: 'a profile user that no longer exists does not matter: the suite makes its own',
      args: ['--provider', 'se-test-other-eid-successful', '--connect-timeout', '30'],
      env: { BANKCTL_USER: '0123456789abcdef0123456789abcdef' },
      code: 0,
      stdout: passed,
    },
    {
      name: 'an unknown provider: exit 2',
      args: ['--provider', 'se-nope'],
      code: 2,
      stderr: 'no provider named "se-nope"',
    },
  ]);
});

describe('off the sandbox', () => {
  let server: Server;
  let url = '';
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url?.startsWith('/api/v1/oauth/token'))
        return json(200, { access_token: 'tok', token_type: 'bearer', expires_in: 1800, scope: 'providers:read' });
      if (req.url?.startsWith('/api/v1/providers/se-bank-redirect'))
        return json(200, {
          name: 'se-bank-redirect',
          type: 'TEST',
          credentialsType: 'THIRD_PARTY_APP',
          authenticationFlow: 'REDIRECT',
          fields: [],
        });
      json(404, { errorMessage: 'not here', errorCode: 'not_found' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  cliCases('smoke', () => ({ ...sb.t.env, BANKCTL_BASE_URL: url }), [
    {
      name: 'a redirect provider is refused before anything is created',
      args: ['--provider', 'se-bank-redirect'],
      code: 2,
      stderr:
        /se-bank-redirect logs in on the bank's own web page \(a redirect\), which needs a person, and http:\/\/127\.0\.0\.1:\d+ is not the sandbox/,
      after: () => {
        expect(seen.filter((s) => s.startsWith('POST') && !s.includes('/oauth/token'))).toEqual([]);
      },
    },
  ]);
});
