// A noun's one description (root help and the noun's own help) speaks of what its verbs do: a
// noun whose description names its verbs names all of them, so that `bankctl --help` does not hide
// a verb (`investments holdings`, `loans accounts`, `transactions report` were missing from it).
import { describe, expect, test } from 'vitest';
import { Context } from '../../src/context.js';
import { testIO } from '../../src/io.js';
import { createProgram } from '../../src/program.js';
import { runCli } from '../helpers/cli.js';

/** Per noun, per verb: the words of the description that stand for the verb. */
const NAMED: Record<string, Record<string, string>> = {
  investments: { list: 'portfolios', accounts: 'investment accounts', holdings: 'holdings' },
  loans: { list: 'loans and mortgages', accounts: 'loan accounts' },
  transactions: { list: 'transactions', report: 'transaction reports' },
  consents: { list: 'list', delete: 'delete', 'update-link': 'renew through the link service', v2: 'v2 consents' },
  users: { create: 'create', get: 'get', update: 'update', delete: 'delete', profile: 'profile' },
  accounts: { list: 'list', get: 'get', update: 'update', balances: 'balances', parties: 'parties' },
};

describe('noun descriptions', () => {
  test('a noun that names its verbs names every one of them', async () => {
    const program = await createProgram(new Context(testIO({})), ['completion']);
    for (const [noun, named] of Object.entries(NAMED)) {
      const cmd = program.commands.find((c) => c.name() === noun)!;
      const verbs = cmd.commands.map((c) => c.name()).filter((n) => n !== 'help');
      // a new verb is added here, and to the description
      expect({ noun, verbs: verbs.sort() }).toEqual({ noun, verbs: Object.keys(named).sort() });
      for (const words of Object.values(named))
        expect({ noun, has: cmd.description() }).toEqual({
          noun,
          has: expect.stringContaining(words),
        });
    }
  });

  test('the root help keeps each of them to at most two lines of 80 columns', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // the commands and the exit codes fit 80 columns (an example is a command line: it is not cut)
    expect(lines.filter((l) => l.length > 80 && !l.startsWith('  $ '))).toEqual([]);
    for (const noun of ['investments', 'loans', 'transactions|tx', 'consents']) {
      const at = lines.findIndex((l) => l.startsWith(`  ${noun} `));
      expect(at).toBeGreaterThan(0);
      // the description's continuation lines are indented under it
      const more = lines.slice(at + 1).findIndex((l) => !/^ {30}\S/.test(l));
      expect({ noun, lines: 1 + more }).toEqual({ noun, lines: expect.toSatisfy((n: number) => n <= 2) });
    }
  });
});
