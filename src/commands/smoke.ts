import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { FlowFailedError } from '../errors.js';
import { render } from '../output/render.js';
import { examples, parseIntArg } from './util.js';

interface SmokeOpts {
  provider: string;
  market: string;
  junit?: string;
  report?: string;
  keep?: boolean;
  connectTimeout: string;
}

export function registerSmoke(program: Command, ctx: Context): void {
  const cmd = program
    .command('smoke')
    .description(
      'the end-to-end check suite for CI, against whatever base URL the profile names; test providers only, cleans up after itself',
    )
    .option('--provider <name>', 'test provider to connect', 'se-test-password')
    .option('--market <code>', 'market of the test user', 'SE')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--report <file>', 'write a JSON report')
    .option('--keep', 'leave the test users in place')
    .option('--connect-timeout <seconds>', 'how long connecting the test provider may take', '120')
    .action(async (o: SmokeOpts) => {
      const { runSmoke, junitXml } = await import('../flows/smoke.js');
      const api = await ctx.api();
      const tokens = await ctx.tokens();
      const host = new URL(await ctx.baseUrl()).hostname;
      const format = await ctx.outputFormat();
      const started = ctx.clock.now();
      const results = await runSmoke(
        api,
        tokens,
        {
          provider: o.provider,
          market: o.market.toUpperCase(),
          keep: Boolean(o.keep),
          connectTimeoutS: parseIntArg(o.connectTimeout, '--connect-timeout', { min: 1 })!,
          localWebhooks: ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host),
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
          now: () => ctx.clock.now(),
        },
        (r) => {
          if (format === 'table' && !ctx.quiet) {
            const mark = r.status === 'passed' ? '✓' : r.status === 'failed' ? '✗' : '-';
            ctx.io.stderr.write(`${mark} ${r.name} (${r.ms} ms)\n`);
          }
        },
      );
      const report = {
        baseUrl: await ctx.baseUrl(),
        startedAt: new Date(started).toISOString(),
        ms: ctx.clock.now() - started,
        results,
      };
      if (o.junit) await writeFile(o.junit, junitXml(results));
      if (o.report) await writeFile(o.report, `${JSON.stringify(report, null, 2)}\n`);
      await render(ctx, results, {
        columns: [
          { header: 'check', path: 'name' },
          { header: 'status', path: 'status' },
          { header: 'ms', path: 'ms' },
          { header: 'detail', path: 'detail' },
        ],
      });
      const failed = results.filter((r) => r.status === 'failed');
      if (failed.length > 0)
        throw new FlowFailedError(
          `smoke check "${failed[0]!.name}" failed: ${failed[0]!.detail}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`,
        );
    });
  examples(cmd, [
    "bankctl smoke                                   # against the profile's base URL",
    'bankctl smoke --junit smoke.xml --report smoke.json',
    'bankctl smoke --profile staging --provider se-test-password --keep',
  ]);
}
