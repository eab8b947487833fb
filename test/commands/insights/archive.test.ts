import { describe, expect } from 'vitest';
import { newCmdArchive } from '../../../src/commands/insights/archive.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 3 });
let id = '';

describe('insights archive', () => {
  optionCases('insights archive', newCmdArchive, [
    { name: 'an id', args: ['i1'], options: { id: 'i1' } },
    { name: 'the id is required', args: [], code: 2, stderr: "missing required argument 'id'" },
  ]);
  cliCases('insights archive', () => sb.env, [
    {
      name: 'archives without an action, and points at the endpoint that replaces it',
      before: async () => {
        id = JSON.parse((await runCli(['insights', 'list', '-o', 'json'], { env: sb.env })).stdout)[0].id;
      },
      args: () => [id],
      code: 0,
      stderr: 'prefer `bankctl insights action ID --action DISMISS`',
      after: async () => {
        const archived = JSON.parse((await runCli(['insights', 'archived', '-o', 'json'], { env: sb.env })).stdout);
        expect(archived.map((i: { id: string }) => i.id)).toContain(id);
      },
    },
    { name: 'an unknown insight is 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});
