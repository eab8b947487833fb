import { describe, expect, test } from 'vitest';
import { newCmdArchive } from '../../../src/commands/budgets/archive.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';
import { runWithAnswer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ user: true });
let id = '';

describe('budgets archive', () => {
  optionCases('budgets archive', newCmdArchive, [{ name: 'an id', args: ['b1'], options: { id: 'b1' } }]);
  cliCases('budgets archive', () => sb.env, [
    {
      name: 'archived: the budget says so',
      before: async () => {
        const r = await runCli(
          ['budgets', 'create-recurring', '--name', 'x', '--amount', '1', '--currency', 'SEK', '-o', 'json'],
          { env: sb.env },
        );
        id = JSON.parse(r.stdout).id;
      },
      args: () => [id, '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toMatchObject({ id, archived: true }),
    },
    { name: 'an unknown budget is 4', args: ['f'.repeat(32)], code: 4 },
  ]);
});

describe('budgets archive: the answer as the reference and the Swagger give it', () => {
  const budget = {
    id: 'e2b746ed27c542ce846a8d693474df21',
    name: 'Coffee',
    archived: true,
    amount: { currencyCode: 'EUR', scale: 1, unscaledValue: 1250 },
    created: 1549976786000,
  };
  // the reference's "Response: Budgets" is the budget itself; the Swagger wraps it
  test.each([
    ['the bare budget (reference)', budget],
    ['{budgetSpecification} (Swagger)', { budgetSpecification: budget }],
  ])('%s: exit 0 and the budget', async (_name, body) => {
    const r = await runWithAnswer(body, ['budgets', 'archive', 'b1', '-o', 'json'], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: budget.id, archived: true, name: 'Coffee' });
  });

  test('an object that is neither is exit 7, not an empty budget', async () => {
    const r = await runWithAnswer({ ok: true }, ['budgets', 'archive', 'b1'], sb.env.BANKCTL_CONFIG_DIR!);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('no budget (no budgetSpecification, no id)');
  });
});
