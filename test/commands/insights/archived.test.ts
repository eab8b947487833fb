import { describe, expect, test } from 'vitest';
import { newCmdArchived } from '../../../src/commands/insights/archived.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, not, optionCases, useSandbox } from '../../helpers/commands.js';
import { runWithAnswer } from '../../helpers/scripted-server.js';

const sb = useSandbox({ months: 3 });
let archivedId = '';

describe('insights archived', () => {
  optionCases('insights archived', newCmdArchived, [{ name: 'takes no flags of its own', args: [], options: {} }]);
  cliCases('insights archived', () => sb.env, [
    { name: 'none before one is acted on', args: ['-o', 'json'], code: 0, stdout: /^\[\]\n$/ },
    {
      name: 'an insight acted on is archived with its action',
      before: async () => {
        const list = JSON.parse((await runCli(['insights', 'list', '-o', 'json'], { env: sb.env })).stdout);
        archivedId = list[0].id;
        const action = list[0].insightActions[0].data.type;
        await runCli(['insights', 'action', archivedId, '--action', action], { env: sb.env });
      },
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([expect.objectContaining({ id: archivedId })]),
    },
    { name: 'a table', args: ['-o', 'table'], code: 0, stdout: ['CREATED', 'ARCHIVED', not('ACTION')] },
  ]);
});

// The vendor's current reference names an archived insight's type insightType (ArchivedInsightDTO);
// the older Swagger, type. Reading only `type` left the column empty against the real service.
test.each([
  ['insightType', 'the vendor reference'],
  ['type', 'the older Swagger'],
])('the type column reads %s (%s)', async (key) => {
  const archived = {
    data: { data: '', type: 'ACCOUNT_BALANCE_LOW' },
    dateArchived: 1552395986000,
    dateInsightCreated: 1552395986000,
    description: 'The balance on your bank account x is low.',
    id: 'e2b746ed27c542ce846a8d693474df21',
    [key]: 'ACCOUNT_BALANCE_LOW',
    title: 'Your balance on bank account x is low',
    userId: 'd9f134ee2eb44846a4e02990ecc8d32e',
  };
  const r = await runWithAnswer([archived], ['insights', 'archived', '-o', 'csv'], sb.env.BANKCTL_CONFIG_DIR!);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.split('\r\n').slice(0, 2)).toEqual([
    // created: the reference's dateInsightCreated (the sandbox-only insightAction column was always empty)
    'id,type,title,created,archived',
    'e2b746ed27c542ce846a8d693474df21,ACCOUNT_BALANCE_LOW,Your balance on bank account x is low,2019-03-12T13:06:26.000Z,2019-03-12T13:06:26.000Z',
  ]);
});
