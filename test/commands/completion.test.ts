import { describe, expect } from 'vitest';
import { newCmdCompletion } from '../../src/commands/completion.js';
import { cliCases, optionCases } from '../helpers/commands.js';

describe('completion: flags', () => {
  optionCases('completion', newCmdCompletion, [
    { name: 'bash', args: ['bash'], options: { shell: 'bash' } },
    { name: 'an unknown shell', args: ['tcsh'], code: 2, stderr: ['unknown shell "tcsh"', 'use bash, zsh, fish'] },
    { name: 'the shell is required', args: [], code: 2 },
  ]);
});

describe('completion: output', () => {
  cliCases('completion', () => ({}), [
    {
      name: 'bash: every noun, and the flags of each verb (loaded for the script)',
      args: ['bash'],
      code: 0,
      stdout: [
        'complete -o default -F _bankctl bankctl',
        /'connector users create'\) echo '[^']*--user-token-stdin/,
        /'credentials create'\) echo '[^']*--field-stdin/,
        (out) => {
          for (const noun of ['auth', 'budgets', 'connector', 'webhooks', 'api', 'sandbox', 'demo', 'completion'])
            expect(out).toContain(`'${noun}'`);
        },
      ],
    },
    { name: 'zsh drives the bash tables', args: ['zsh'], code: 0, stdout: [/^#compdef bankctl/, 'bashcompinit'] },
    {
      name: 'fish',
      args: ['fish'],
      code: 0,
      stdout: "complete -c bankctl -n 'test (__bankctl_path) = '\\''credentials create'\\''' -l field-stdin -r",
    },
  ]);
});
