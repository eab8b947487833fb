import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { newCmdSmoke } from '../../src/commands/smoke.js';
import { tempDir } from '../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../helpers/commands.js';

const sb = useSandbox();
const dir = tempDir();
let usersBefore = 0;

describe('smoke: flags', () => {
  optionCases('smoke', newCmdSmoke, [
    {
      name: 'defaults',
      args: [],
      options: { provider: 'se-test-password', market: 'SE', keep: false, connectTimeoutS: 120 },
    },
    {
      name: 'a market upper-cased, reports, --keep',
      args: ['--market', 'gb', '--junit', 'j.xml', '--report', 'r.json', '--keep'],
      options: { market: 'GB', junit: 'j.xml', report: 'r.json', keep: true },
    },
    {
      name: 'a connect timeout that is not a number',
      args: ['--connect-timeout', 'long'],
      code: 2,
      stderr: '--connect-timeout must be a whole number',
    },
  ]);
});

describe('smoke: output', () => {
  cliCases('smoke', () => sb.t.env, [
    {
      name: 'client credentials refused: exit 9 naming the check, its dependants skipped, the reports written',
      args: ['--junit', join(dir, 'j.xml'), '--report', join(dir, 'r.json')],
      env: { BANKCTL_CLIENT_SECRET: 'wrong-secret' },
      code: 9,
      stdout: (out) => {
        const results = JSON.parse(out) as Array<{ name: string; status: string }>;
        expect(results[0]).toMatchObject({ name: 'client token', status: 'failed' });
        // what needs a client token does not pass; the connector checks (connector token) still run
        expect(results.find((r) => r.name === 'create user')?.status).not.toBe('passed');
      },
      stderr: [/error: smoke check "client token" failed/, (err) => expect(err).not.toContain('wrong-secret')],
      after: () => {
        expect(readFileSync(join(dir, 'j.xml'), 'utf8')).toMatch(
          /<testsuite name="bankctl smoke" tests="\d+" failures="[1-9]/,
        );
        expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).baseUrl).toBe(sb.t.sandbox.baseUrl);
      },
    },
    {
      // before, the whole suite ran (a user made, a bank connected) and then the write failed
      name: 'a report that cannot be written is exit 2 before any check runs',
      before: () => void (usersBefore = sb.t.sandbox.store.users.size),
      args: ['--junit', join(dir, 'no-such-dir', 'j.xml')],
      code: 2,
      stdout: (out) => expect(out).toBe(''),
      stderr: /cannot write the JUnit report .*no-such-dir.*: no such file or directory \(ENOENT\)/,
      after: () => {
        expect(sb.t.sandbox.store.users.size).toBe(usersBefore);
      },
    },
  ]);
});
