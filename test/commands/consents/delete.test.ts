import { describe } from 'vitest';
import { newCmdDelete } from '../../../src/commands/consents/delete.js';
import { runCli } from '../../helpers/cli.js';
import { cliCases, connectTestBank, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ user: true });
let credentialsId = '';

describe('consents delete', () => {
  optionCases('consents delete', newCmdDelete, [
    { name: 'a credentials id', args: ['--yes', 'c1'], options: { credentialsId: 'c1' } },
    { name: 'the id is required', args: ['--yes'], code: 2, stderr: "missing required argument 'credentialsId'" },
  ]);
  cliCases('consents delete', () => sb.env, [
    {
      name: 'deletes the consent and its credentials',
      before: async () => void (credentialsId = await connectTestBank(sb.env)),
      args: () => ['--yes', credentialsId],
      code: 0,
      stderr: /deleted consent [0-9a-f]{32} \(its credentials are deleted/,
      after: async () => {
        const r = await runCli(['consents', 'list', '-o', 'json'], { env: sb.env });
        if (r.stdout.trim() !== '[]') throw new Error(`still listed: ${r.stdout}`);
      },
    },
    { name: 'an unknown id is 4', args: ['--yes', 'f'.repeat(32)], code: 4 },
  ]);
});
