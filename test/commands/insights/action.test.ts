import { describe, expect } from 'vitest';
import { newCmdAction } from '../../../src/commands/insights/action.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 3 });
let insight: { id: string; insightActions: Array<{ data: { type: string } }> };

describe('insights action', () => {
  optionCases('insights action', newCmdAction, [
    { name: 'the action upper-cased', args: ['i1', '--action', ' dismiss '], options: { id: 'i1', action: 'DISMISS' } },
    {
      name: '--action is required',
      args: ['i1'],
      code: 2,
      stderr: 'error: --action is required (the action the user chose',
    },
    {
      name: 'not an action type',
      args: ['i1', '--action', 'do it'],
      code: 2,
      stderr: '--action must be an action type',
    },
  ]);
  cliCases('insights action', () => sb.env, [
    {
      name: 'an offered action archives the insight',
      before: async () => {
        insight = JSON.parse((await runCli(['insights', 'list', '-o', 'json'], { env: sb.env })).stdout)[0];
      },
      args: () => [insight.id, '--action', insight.insightActions[0]!.data.type],
      code: 0,
      stderr: /insight [0-9a-f]+ archived after [A-Z_]+/,
      after: async () => {
        const active = JSON.parse((await runCli(['insights', 'list', '-o', 'json'], { env: sb.env })).stdout);
        expect(active.map((i: { id: string }) => i.id)).not.toContain(insight.id);
      },
    },
    { name: 'an unknown insight is 4', args: ['f'.repeat(32), '--action', 'DISMISS'], code: 4 },
  ]);
});
