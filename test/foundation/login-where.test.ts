// Where a logged-in client goes. `auth login --profile prod --base-url URL` checked the client
// against URL but kept only the id and secret, so prod's next command sent its secret to the local
// sandbox (or 127.0.0.1:8787). And a client stored by `auth login` against one sandbox shadows the
// next sandbox's own client: every command then failed 401 while `sandbox start` said the profile
// would use the new client. Real processes, two real sandboxes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

interface Ready {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

const dir = tempDir();
const env = { BANKCTL_CONFIG_DIR: dir };
const cli = (args: string[], stdin?: string) => spawnCli(args, { env, stdin });
let first: Ready;

async function start(): Promise<{ ready: Ready; table: string }> {
  const r = await cli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return { ready: JSON.parse(r.stdout) as Ready, table: r.stdout };
}

beforeAll(async () => {
  first = (await start()).ready;
});
afterAll(async () => {
  await cli(['sandbox', 'stop']);
});

describe('auth login keeps where it checked the client', () => {
  test('--base-url given to login is saved in the profile, and the next command goes there', async () => {
    const login = await cli(
      [
        'auth',
        'login',
        '--client-id',
        first.clientId,
        '--client-secret-stdin',
        '--profile',
        'prod',
        '--base-url',
        first.baseUrl,
      ],
      first.clientSecret,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`stored in profile "prod"`);
    expect(login.stderr).toContain(`with base-url ${first.baseUrl}`);
    const got = await cli(['config', 'get', 'base-url', '--profile', 'prod']);
    expect(got.stdout.trim()).toBe(first.baseUrl);
    const explained = await cli(['config', 'explain', '--profile', 'prod', '-o', 'json']);
    const base = (JSON.parse(explained.stdout) as Array<{ key: string; source: string }>).find(
      (s) => s.key === 'base-url',
    );
    expect(base?.source).toBe('profile prod');
  });

  test('a profile logged into without a URL of its own is warned about', async () => {
    const login = await cli(
      ['auth', 'login', '--client-id', first.clientId, '--client-secret-stdin', '--profile', 'staging'],
      first.clientSecret,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(
      `profile "staging" has no base URL of its own: it goes to ${first.baseUrl} (the local sandbox); set one with \`bankctl config set base-url URL --profile staging\``,
    );
  });
});

describe('a client from an earlier login against another sandbox', () => {
  test('sandbox start says so, the 401 and doctor point at auth logout, and logout makes it work', async () => {
    const login = await cli(
      ['auth', 'login', '--client-id', first.clientId, '--client-secret-stdin'],
      first.clientSecret,
    );
    expect(login.code, login.stderr).toBe(0);
    expect((await cli(['sandbox', 'stop'])).code).toBe(0);
    const table = await cli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(
      'The profile "default" has a client of its own (from `auth login`), which this sandbox does not know: `bankctl auth logout` lets it use the sandbox\'s client.',
    );
    expect(table.stdout).not.toContain('uses this client automatically');
    const refused = await cli(['users', 'create', '--market', 'SE']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      'the client id comes from profile "default" (an earlier `auth login`), and the running sandbox has a client of its own: `bankctl auth logout` lets the sandbox\'s client take over',
    );
    const doctor = await cli(['doctor', '-o', 'json']);
    expect(doctor.code).toBe(9);
    expect(doctor.stdout).toContain('`bankctl auth logout` lets the sandbox');
    expect((await cli(['auth', 'logout'])).code).toBe(0);
    const created = await cli(['users', 'create', '--market', 'SE', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    // and with no client of its own, start says the profile uses the sandbox's
    expect((await cli(['sandbox', 'stop'])).code).toBe(0);
    const again = await cli(['sandbox', 'start', '--detach', '--port', '0', '-o', 'table']);
    expect(again.stdout).toContain('The profile "default" uses this client automatically while the sandbox runs.');
  });
});
