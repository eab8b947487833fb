// Every `sandbox` verb that talks to a running sandbox, run when none is: the same exit code (2, a
// usage/state error) and the same one line naming what is missing, before any credentials or
// retries get in the way (`sandbox trigger` said "no client credentials" with exit 3, and
// `rotate-connector-token` retried a refused connection and ended with exit 8).
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const VERBS: Array<{ name: string; args: string[] }> = [
  { name: 'sandbox trigger', args: ['trigger', 'credentials:update'] },
  { name: 'sandbox trigger', args: ['trigger', 'account:created'] },
  { name: 'sandbox rotate-connector-token', args: ['rotate-connector-token'] },
  { name: 'sandbox logs', args: ['logs'] },
  { name: 'sandbox logs', args: ['logs', '--follow', '--wait-timeout', '1'] },
  { name: 'sandbox reset', args: ['reset', '--yes'] },
  { name: 'sandbox load', args: ['load', 'LOAD_FILE'] },
  { name: 'sandbox clock', args: ['clock', 'show'] },
  { name: 'sandbox clock', args: ['clock', 'advance', '1d'] },
  { name: 'sandbox clock', args: ['clock', 'set', '2026-03-01'] },
  { name: 'sandbox credentials set-status', args: ['credentials', 'set-status', 'c1', 'UPDATED'] },
  { name: 'sandbox consents expire', args: ['consents', 'expire', 'c1'] },
  {
    name: 'sandbox transactions add',
    args: ['transactions', 'add', '--user', 'u1', '--account', 'a1', '--count', '1'],
  },
];

describe('a sandbox verb with no sandbox running', () => {
  let base: string;
  let dir: string;
  let fixtures: string;
  beforeAll(async () => {
    base = `http://127.0.0.1:${await closedPort()}`;
    dir = tempDir();
    fixtures = join(tempDir(), 'scenario.json');
    writeFileSync(fixtures, '{"users": {}}\n');
  });

  for (const [i, v] of VERBS.entries())
    test(`${i}: bankctl sandbox ${v.args.join(' ')}: exit 2, one line, "no sandbox is running"`, async () => {
      const args = v.args.map((a) => (a === 'LOAD_FILE' ? fixtures : a));
      // a connector token in the environment, as a CI job has it: still the same answer
      const r = await spawnCli(['sandbox', ...args], {
        env: { BANKCTL_CONFIG_DIR: dir, BANKCTL_BASE_URL: base, BANKCTL_CONNECTOR_TOKEN: 'ct-1' },
      });
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        `error: \`${v.name}\` needs the bankctl sandbox, and no sandbox is running at ${base} ` +
          '(start one with `bankctl sandbox start` (the default profile then uses it), or pass --base-url of a running sandbox)',
      ]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    });
});
