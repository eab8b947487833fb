// Every market's <market>-test-password and <market>-test-multi-supplemental, end to end through
// the CLI in-process against the sandbox (a few at a time). The spawned binary's connect is covered
// by test/credentials/connect-e2e.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MARKETS } from '../../src/contract/markets.js';
import { runCli } from '../helpers/cli.js';
import { startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 5 });
});
afterAll(() => t.close());

describe('market variants through the CLI', () => {
  test(`all ${MARKETS.length} markets: the password and two-code variants end UPDATED`, async () => {
    const jobs = MARKETS.flatMap((m) => [
      {
        m,
        provider: `${m.toLowerCase()}-test-password`,
        args: ['--field', 'username=test-user', '--field-stdin', 'password'],
        stdin: 'test-password\n',
      },
      {
        m,
        provider: `${m.toLowerCase()}-test-multi-supplemental`,
        args: ['--field', 'username=test-user', '--answer', 'code1=1234', '--answer', 'code2=5678'],
      },
    ]);
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const user = (await userWithToken(t.sandbox, ['credentials:read'], job.m)).userId;
        const r = await runCli(
          [
            'credentials',
            'connect',
            '--user',
            user,
            '--provider',
            job.provider,
            '--poll-interval',
            '20',
            '--wait-timeout',
            '30',
            ...job.args,
            '-o',
            'json',
          ],
          { env: t.env, stdin: job.stdin },
        );
        let status = '';
        try {
          status = JSON.parse(r.stdout).status;
        } catch {
          // reported below
        }
        if (r.code !== 0 || status !== 'UPDATED')
          failures.push(`${job.provider}: exit ${r.code} ${status} ${r.stderr.trim().slice(0, 200)}`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(failures).toEqual([]);
  }, 180_000);
});
