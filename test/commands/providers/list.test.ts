import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { MARKETS_IN_FLIGHT } from '../../../src/api/providers.js';
import { newCmdList } from '../../../src/commands/providers/list.js';
import { MARKETS } from '../../../src/contract/markets.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();

describe('providers list: flags', () => {
  optionCases('providers list', newCmdList, [
    { name: 'a market, upper-cased', args: ['--market', 'se'], options: { market: 'SE', includeTestProviders: false } },
    {
      name: '--only-test includes test providers and excludes the rest',
      args: ['--only-test'],
      options: { includeTestProviders: true, excludeNonTestProviders: true },
    },
    { name: 'a capability', args: ['--capability', 'payments'], options: { capability: 'PAYMENTS' } },
    { name: 'an unknown market', args: ['--market', 'XX'], code: 2, stderr: '--market: unknown market "XX"' },
    {
      name: 'an unknown capability',
      args: ['--capability', 'FLYING'],
      code: 2,
      stderr: '--capability: unknown capability "FLYING"',
    },
  ]);
});

describe('providers list: output', () => {
  cliCases('providers list', () => sb.env, [
    {
      name: 'only the test providers of a market',
      args: ['--market', 'SE', '--only-test', '-o', 'json'],
      code: 0,
      stdout: (out) => {
        const list = JSON.parse(out);
        expect(list.map((p: { name: string }) => p.name)).toContain('se-test-password');
        expect(list.every((p: { type: string }) => p.type === 'TEST')).toBe(true);
      },
    },
    {
      name: 'csv with --fields',
      args: ['--market', 'SE', '--only-test', '-o', 'csv', '--fields', 'name,credentialsType'],
      code: 0,
      stdout: [/^name,credentialsType\r\n/, 'se-test-password,PASSWORD'],
    },
    {
      name: 'by name',
      args: ['--market', 'SE', '--include-test', '--name', 'se-test-password', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([expect.objectContaining({ name: 'se-test-password' })]),
    },
  ]);
});

describe('providers list without --market: every market, a few requests at a time', () => {
  test('all markets in their order, at most MARKETS_IN_FLIGHT requests in flight, and a failure is the exit code', async () => {
    let inFlight = 0;
    let most = 0;
    const asked: string[] = [];
    let fail = '';
    const server = createServer((req, res) => {
      const market = /^\/api\/v1\/providers\/([A-Z]{2})/.exec(req.url ?? '')?.[1];
      if (!market) return res.writeHead(404).end();
      asked.push(market);
      inFlight++;
      most = Math.max(most, inFlight);
      // the later markets answer first: the order of the output must not follow the answers'
      setTimeout(
        () => {
          inFlight--;
          if (market === fail) {
            res.writeHead(503, { 'content-type': 'application/json' }).end('{"errorMessage":"down"}');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ providers: [{ name: `${market.toLowerCase()}-bank`, market }] }));
        },
        40 - (asked.length % 6) * 5,
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { BANKCTL_BASE_URL: base, BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_RETRIES: '0' };
    try {
      const started = Date.now();
      const r = await runCli(['providers', 'list', '-o', 'json'], { env });
      const took = Date.now() - started;
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).map((p: { market: string }) => p.market)).toEqual(MARKETS);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(MARKETS_IN_FLIGHT);
      // 37 markets one after another would take at least 37 x 15 ms
      expect(took).toBeLessThan(MARKETS.length * 15);

      // a market that fails: its exit code (7, a 5xx), no partial list on stdout, and no request
      // starts after the failure
      fail = MARKETS[3]!;
      asked.length = 0;
      const down = await runCli(['providers', 'list', '-o', 'json'], { env });
      expect(down.code).toBe(7);
      expect(down.stdout).toBe('');
      expect(down.stderr).toContain(`/api/v1/providers/${fail}`);
      expect(asked.length).toBeLessThan(MARKETS.length);
    } finally {
      server.close();
    }
  });
});
