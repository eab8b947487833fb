import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { newCmdCompletion } from '../../src/commands/completion.js';
import { cliCases, optionCases } from '../helpers/commands.js';

describe('completion: flags', () => {
  optionCases('completion', newCmdCompletion, [
    { name: 'bash', args: ['bash'], options: { shell: 'bash' } },
    { name: 'an unknown shell', args: ['tcsh'], code: 2, stderr: ['unknown shell "tcsh"', 'use bash, zsh, fish'] },
    { name: 'the shell is required', args: [], code: 2 },
    {
      name: '--jq: a script is no json',
      args: ['bash', '--jq', '.'],
      code: 2,
      stderr: '--jq does not apply to `bankctl completion`',
    },
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
    {
      name: 'bash: the closed lists of --items (the refreshable items) and of sandbox logs --method',
      args: ['bash'],
      code: 0,
      stdout: [
        /'credentials connect\|--items'\) echo 'CHECKING_ACCOUNTS [^']*IDENTITY_DATA/,
        /'credentials create\|--items'\) echo 'CHECKING_ACCOUNTS /,
        /'credentials refresh\|--items'\) echo 'CHECKING_ACCOUNTS /,
        "'sandbox logs|--method') echo 'GET POST PUT PATCH DELETE HEAD OPTIONS' ;;",
      ],
    },
    {
      // the script's own install line says what README says, not a system directory README never names
      name: "bash: the header's install line is README's",
      args: ['bash'],
      code: 0,
      stdout: (out) => {
        const install = out.split('\n').find((l) => l.startsWith('# Install:'))!;
        expect(install).not.toContain('/etc/bash_completion.d');
        const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
        for (const said of [
          'source <(bankctl completion bash)',
          '~/.local/share/bash-completion/completions/bankctl',
        ]) {
          expect(install).toContain(said);
          expect(readme).toContain(said);
        }
      },
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
