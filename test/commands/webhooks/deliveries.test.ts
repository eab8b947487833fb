import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { newCmdDeliveries } from '../../../src/commands/webhooks/deliveries.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { startReceiver, type Receiver } from '../../webhooks/helpers.js';

const sb = useSandbox({ sandbox: { webhooks: { retryDelaysMs: [10], timeoutMs: 1_000 } } });
let rx: Receiver;
let other: Server;
let otherUrl = '';

beforeAll(async () => {
  rx = await startReceiver();
  rx.respond = (r, res) => res.writeHead(r.json().event === 'account:updated' ? 410 : 200).end();
  other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await rx.close();
  await new Promise<void>((r) => other.close(() => r()));
});

async function setUp() {
  const c = await runCli(
    [
      'webhooks',
      'endpoints',
      'create',
      '--url',
      `${rx.url}/in`,
      '--event',
      'account:created,account:updated',
      '-o',
      'json',
    ],
    { env: sb.env },
  );
  expect(c.code, c.stderr).toBe(0);
  for (const e of ['account:created', 'account:updated'])
    expect((await runCli(['sandbox', 'trigger', e], { env: sb.env })).code).toBe(0);
  await rx.waitFor(2);
}

describe('webhooks deliveries', () => {
  optionCases('webhooks deliveries', newCmdDeliveries, [
    { name: 'no filter', args: [], options: { event: undefined, status: undefined, endpoint: undefined } },
    {
      name: 'every filter',
      args: ['--event', 'refresh:finished', '--status', 'failed', '--endpoint', 'e1'],
      options: { event: 'refresh:finished', status: 'failed', endpoint: 'e1' },
    },
    { name: 'v1 names too', args: ['--event', 'credentials:update'], options: { event: 'credentials:update' } },
    { name: 'an unknown status', args: ['--status', 'lost'], code: 2, stderr: /delivered, failed, pending/ },
    { name: 'an unknown event', args: ['--event', 'nope'], code: 2, stderr: /unknown event "nope"/ },
  ]);
  cliCases('webhooks deliveries', () => sb.env, [
    {
      name: 'json: each delivery with its endpoint URL, attempts, last status; the body is not shown',
      before: setUp,
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => {
        const list = JSON.parse(out);
        expect(list.map((d: any) => [d.event, d.url, d.status, d.attempts, d.lastStatusCode])).toEqual([
          ['account:created', `${rx.url}/in`, 'delivered', 1, 200],
          ['account:updated', `${rx.url}/in`, 'failed', 1, 410],
        ]);
        expect(out).not.toContain('"body"');
      },
    },
    {
      name: '--status failed',
      args: ['--status', 'failed', '-o', 'csv'],
      code: 0,
      stdout: [/^id,event,endpoint,status,attempts,last,next retry\r\n/, /,account:updated,.*,failed,1,410,\r\n$/],
    },
    {
      name: '--event with none: a notice',
      args: ['--event', 'refresh:finished', '-o', 'table'],
      code: 0,
      stderr: /no deliveries/,
    },
    {
      name: 'a profile that points at another service: exit 2 before anything is sent',
      args: [],
      env: { BANKCTL_BASE_URL: 'https://api.bank.example' },
      code: 2,
      stderr: [
        /`webhooks deliveries` needs the bankctl sandbox/,
        // the URL came from the environment, not from the profile
        /BANKCTL_BASE_URL points at https:\/\/api\.bank\.example/,
        /sandbox start/,
      ],
    },
    {
      // before: exit 3 "no client credentials configured ... start the local sandbox"
      name: 'a loopback URL where nothing listens: exit 2 naming the URL, not advice about credentials',
      args: ['--base-url', 'http://127.0.0.1:1', '--retries', '0'],
      env: { BANKCTL_CLIENT_ID: undefined, BANKCTL_CLIENT_SECRET: undefined },
      code: 2,
      stderr: /needs the bankctl sandbox: --base-url points at http:\/\/127\.0\.0\.1:1, which is not it/,
    },
  ]);
  cliCases('webhooks deliveries', () => ({ ...sb.env, BANKCTL_BASE_URL: otherUrl }), [
    {
      name: 'a loopback server that is not the sandbox: exit 2 with the same reason',
      args: [],
      code: 2,
      stderr: /needs the bankctl sandbox/,
    },
  ]);
});
