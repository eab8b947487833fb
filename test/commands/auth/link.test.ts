import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { newCmdLink } from '../../../src/commands/auth/link.js';
import { run } from '../../../src/main.js';
import { testIO } from '../../../src/io.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
const env = () => ({ ...sb.env, BANKCTL_CONFIG_DIR: tempDir() });

describe('auth link: flags', () => {
  optionCases('auth link', newCmdLink, [
    {
      name: 'defaults: port 3000, a browser, five minutes',
      args: [],
      options: {
        port: 3000,
        browser: true,
        waitS: 300,
        scopes: expect.arrayContaining(['accounts:read']) as unknown as string[],
      },
    },
    {
      name: 'a market upper-cased, scopes split',
      args: ['--market', 'se', '--scope', 'a:read,b:read', '--no-browser', '--port', '0'],
      options: { market: 'SE', scopes: ['a:read', 'b:read'], browser: false, port: 0 },
    },
    {
      name: 'a port out of range',
      args: ['--port', '70000'],
      code: 2,
      stderr: '--port must be a whole number from 0 to 65535, got 70000',
    },
    {
      name: 'a locale the flow does not speak',
      args: ['--locale', 'de_DE'],
      code: 2,
      stderr: 'the link flow speaks en_US and sv_SE',
    },
    { name: 'no scope', args: ['--scope', ','], code: 2, stderr: '--scope is empty' },
    {
      name: 'an unknown market',
      args: ['--market', 'ZZ'],
      code: 2,
      stderr: /--market: unknown market "ZZ".*one of .*SE/,
    },
  ]);
});

describe('auth link: output', () => {
  cliCases('auth link', env, [
    {
      name: 'no callback in time is 9',
      args: ['--no-browser', '--port', '0', '--wait-timeout', '1'],
      code: 9,
      stderr: ['Open this address to connect a bank', 'no callback within 1 s'],
    },
    {
      name: 'no client id',
      args: ['--no-browser', '--port', '0'],
      env: { BANKCTL_CLIENT_ID: undefined },
      code: 2,
      stderr: 'a client id is needed',
    },
  ]);

  test('a port in use is a usage error', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, 'localhost', () => r()));
    const port = (busy.address() as { port: number }).port;
    const io = testIO({ env: env() });
    expect(await run(['auth', 'link', '--no-browser', '--port', String(port)], io)).toBe(2);
    expect(io.err()).toContain(`port ${port} is in use`);
    busy.close();
  });

  test('the callback with the code: the token is exchanged and printed', async () => {
    const io = testIO({ env: env() });
    const done = run(['auth', 'link', '--no-browser', '--port', '0', '--scope', 'accounts:read', '-o', 'json'], io);
    let url: URL | undefined;
    for (let i = 0; i < 250 && !url; i++) {
      const m = /(http:\/\/\S+\/1\.0\/authorize\/\S+)/.exec(io.err());
      if (m && /Waiting/.test(io.err())) url = new URL(m[1]!);
      else await new Promise((r) => setTimeout(r, 20));
    }
    const q = url!.searchParams;
    // a code for this client, as the link service would give one
    const grant = await runCli(['auth', 'grant', '--scope', 'accounts:read', '-o', 'json'], { env: sb.env });
    const code = JSON.parse(grant.stdout).code as string;
    const cb = new URL(q.get('redirect_uri')!);
    cb.searchParams.set('code', code);
    cb.searchParams.set('state', q.get('state')!);
    expect((await fetch(cb)).status).toBe(200);
    expect(await done).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ access_token: expect.any(String), scope: 'accounts:read' });
    expect(io.err()).toMatch(/user token stored in profile "default"/);
  });
});
