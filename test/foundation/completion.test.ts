import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const FILES = { bash: 'bankctl.bash', zsh: '_bankctl', fish: 'bankctl.fish' } as const;

describe('shell completions', () => {
  test.each(Object.entries(FILES))(
    'completions/%s is current (regenerate with node scripts/completions.mjs)',
    async (shell, file) => {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, 'completions', file), 'utf8'));
    },
  );

  test('an unknown shell is a usage error', async () => {
    expect((await runCli(['completion', 'tcsh'])).code).toBe(2);
  });

  function complete(words: string[]): string[] {
    const script = `source ${JSON.stringify(join(ROOT, 'completions', FILES.bash))}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _bankctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', script], { encoding: 'utf8' }).split('\n').filter(Boolean);
  }

  test('bash: nouns, verbs, flags and enum values complete from a partial word', () => {
    expect(complete(['bankctl', 'us'])).toEqual(['users']);
    expect(complete(['bankctl', 'auth', 'lo'])).toEqual(['login', 'logout']);
    expect(complete(['bankctl', 'users', 'create', '--mar'])).toEqual(['--market']);
    expect(complete(['bankctl', 'users', 'create', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete(['bankctl', '--profile', 'prod', 'sandbox', 'st'])).toEqual(['start', 'stop', 'status']);
    expect(complete(['bankctl', 'completion', 'z'])).toEqual(['zsh']);
  });

  test("bash: an option completes to its own command's values (--type is not the statistics types everywhere)", () => {
    const accountTypes = [
      'CHECKING',
      'SAVINGS',
      'CREDIT_CARD',
      'LOAN',
      'MORTGAGE',
      'INVESTMENT',
      'PENSION',
      'OTHER',
      'EXTERNAL',
    ];
    expect(complete(['bankctl', 'accounts', 'update', '--type', ''])).toEqual(expect.arrayContaining(accountTypes));
    expect(complete(['bankctl', 'accounts', 'update', '--type', ''])).not.toContain('expenses-by-category');
    expect(complete(['bankctl', 'connector', 'accounts', 'update', '--type', 'CH'])).toEqual(['CHECKING']);
    expect(complete(['bankctl', 'accounts', 'list', '--type', ''])).toEqual([
      'UNDEFINED',
      'CHECKING',
      'SAVINGS',
      'CREDIT_CARD',
    ]);
    expect(complete(['bankctl', 'connector', 'push', '--type', ''])).toEqual(['REAL_TIME', 'HISTORICAL', 'BATCH']);
    expect(complete(['bankctl', 'connector', 'transactions', 'delete', '--type', 'B'])).toEqual(['BATCH']);
    for (const verb of [['push'], ['verify'], ['accounts', 'push']])
      expect(complete(['bankctl', 'connector', ...verb, '--format', ''])).toEqual(['json', 'ndjson', 'csv']);
    expect(complete(['bankctl', 'transactions', 'list', '--status', ''])).toEqual(['BOOKED', 'PENDING', 'UNDEFINED']);
    expect(complete(['bankctl', 'tx', 'list', '--status', 'P'])).toEqual(['PENDING']);
    expect(complete(['bankctl', 'webhooks', 'deliveries', '--status', ''])).toEqual(['delivered', 'failed', 'pending']);
    expect(complete(['bankctl', 'users', 'create', '--market', 'S'])).toEqual(['SE', 'SG', 'SI', 'SK']);
    expect(complete(['bankctl', 'providers', 'list', '--market', 'N'])).toEqual(['NL', 'NO', 'NZ']);
    // the statistics types come from `bankctl __complete`, asked on statistics query only
    const kind = (path: string, opt: string) =>
      execFileSync(
        'bash',
        ['-c', `source ${JSON.stringify(join(ROOT, 'completions', FILES.bash))}; _bankctl_dynamic '${path}' '${opt}'`],
        { encoding: 'utf8' },
      ).trim();
    expect(kind('statistics query', '--type')).toBe('statistics-types');
    expect(kind('accounts update', '--type')).toBe('');
    expect(kind('connector push', '--type')).toBe('');
    // --event: the Events v2 endpoints take only v2 names, listen and deliveries both, the v1 verbs v1
    expect(kind('webhooks endpoints create', '--event')).toBe('events-v2');
    expect(kind('webhooks endpoints update', '--event')).toBe('events-v2');
    expect(kind('webhooks listen', '--event')).toBe('events-all');
    expect(kind('webhooks create', '--event')).toBe('events');
    // balance-refresh create takes no argument (the account is --account)
    expect(kind('balance-refresh create', '')).toBe('');
    expect(kind('accounts balances', '')).toBe('accounts');
  });

  test('__complete: the event names of each kind', async () => {
    const names = async (kind: string) => (await runCli(['__complete', kind])).stdout.trim().split('\n');
    expect(await names('events-v2')).toContain('refresh:finished');
    expect(await names('events-v2')).not.toContain('credentials:update');
    expect(await names('events')).toContain('credentials:update');
    expect(await names('events')).not.toContain('refresh:finished');
    expect(await names('events-all')).toEqual(expect.arrayContaining(['credentials:update', 'refresh:finished']));
  });

  test("bash: the api command's paths complete from the endpoint table", () => {
    expect(complete(['bankctl', 'api', 'GE'])).toEqual(['GET']);
    expect(complete(['bankctl', 'api', 'GET', '/api/v1/prov'])).toEqual([
      '/api/v1/providers',
      '/api/v1/providers/markets',
      '/api/v1/providers/{market}',
      '/api/v1/provider-consents',
    ]);
    expect(complete(['bankctl', 'api', 'POST', '/connector/users/{externalUserId}/tr'])).toEqual([
      '/connector/users/{externalUserId}/transactions',
      '/connector/users/{externalUserId}/transactions/delete',
      '/connector/users/{externalUserId}/transactions/{externalTransactionId}',
    ]);
  });
});

// Options whose values bankctl checks against a closed list completed to file names (README: "the
// values of an option with a closed list"); each now completes to the values its check accepts. The
// script is generated from the command tree here, not read from completions/.
describe('bash: every closed-list option completes to its values', () => {
  let script = '';
  function completeGenerated(words: string[]): string[] {
    const run = `${script}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _bankctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-s'], { input: run, encoding: 'utf8', cwd: ROOT }).split('\n').filter(Boolean);
  }

  test.each([
    [
      ['accounts', 'update', 'ID', '--exclusion'],
      ['NONE', 'AGGREGATION', 'PFM_AND_SEARCH', 'PFM_DATA'],
    ],
    [
      ['connector', 'accounts', 'update', 'acc-1', '--exclusion'],
      ['PFM_AND_SEARCH', 'PFM_DATA', 'NONE'],
    ],
    [
      ['users', 'profile', 'set', '--period-mode'],
      ['MONTHLY', 'MONTHLY_ADJUSTED'],
    ],
    [
      ['investments', 'list', '--portfolio-type'],
      ['ISK', 'KF', 'DEPOT', 'PENSION', 'OTHER'],
    ],
    [
      ['consents', 'v2', 'create', '--subtype'],
      ['VRP_SWEEPING', 'VRP_COMMERCIAL'],
    ],
    [
      ['consents', 'v2', 'templates', 'P', '--subtype'],
      ['VRP_SWEEPING', 'VRP_COMMERCIAL'],
    ],
    [
      ['budgets', 'update', 'ID', '--period'],
      ['WEEK', 'MONTH', 'YEAR'],
    ],
    [
      ['sandbox', 'logs', '--status'],
      ['1xx', '2xx', '3xx', '4xx', '5xx'],
    ],
    [
      ['webhooks', 'listen', '--register-via'],
      ['api', 'connector', 'events-v2'],
    ],
    [
      ['api', 'GET', '/version', '--as'],
      ['client', 'user', 'connector', 'none'],
    ],
  ])('bankctl %j <TAB>', async (words, values) => {
    if (!script) script = (await runCli(['completion', 'bash'])).stdout;
    expect(completeGenerated(['bankctl', ...words, ''])).toEqual(values);
  });

  test('credentials watch --until and providers list --capability: the statuses and capabilities it accepts', async () => {
    if (!script) script = (await runCli(['completion', 'bash'])).stdout;
    const until = completeGenerated(['bankctl', 'credentials', 'watch', 'ID', '--until', '']);
    expect(until).toEqual(expect.arrayContaining(['UPDATED', 'AWAITING_SUPPLEMENTAL_INFORMATION', 'SESSION_EXPIRED']));
    expect(completeGenerated(['bankctl', 'credentials', 'watch', 'ID', '--until', 'AWAITING_S'])).toEqual([
      'AWAITING_SUPPLEMENTAL_INFORMATION',
    ]);
    const caps = completeGenerated(['bankctl', 'providers', 'list', '--capability', '']);
    expect(caps).toEqual(expect.arrayContaining(['CHECKING_ACCOUNTS', 'PAYMENTS', 'IDENTITY_DATA']));
  });
});
