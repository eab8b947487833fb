import { describe, expect } from 'vitest';
import { newCmdMarkets } from '../../../src/commands/providers/markets.js';
import { MARKETS } from '../../../src/contract/markets.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox();

describe('providers markets', () => {
  optionCases('providers markets', newCmdMarkets, [
    { name: 'no flags of its own', args: [], options: {} },
    { name: 'no arguments', args: ['SE'], code: 2, stderr: 'too many arguments' },
  ]);
  cliCases('providers markets', () => sb.env, [
    {
      name: 'json: one object per market, every market of the sandbox',
      args: ['-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out)).toEqual([...MARKETS].sort().map((market) => ({ market }))),
    },
    { name: 'csv: a header and a row per market', args: ['-o', 'csv'], code: 0, stdout: [/^market\r\n/, '\r\nSE\r\n'] },
  ]);
});
