import { describe, expect } from 'vitest';
import { newCmdList } from '../../../src/commands/providers/list.js';
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
    {
      name: "the reference's beneficiary capabilities",
      args: ['--capability', 'create_beneficiaries_in_payment'],
      options: { capability: 'CREATE_BENEFICIARIES_IN_PAYMENT' },
    },
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
      name: "a capability of the reference's filter the sandbox takes too (no provider has it: an empty list)",
      args: ['--market', 'SE', '--capability', 'LIST_BENEFICIARIES', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([]),
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
