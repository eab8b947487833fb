// `smoke`: the end-to-end check suite for CI, against the profile's base URL (flows/smoke.ts).
// A noun that is one command: it configures the `smoke` command src/program.ts made.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { maskUrlPassword } from '../config/display.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { fileError } from '../fs/errors.js';
import { assertWritableDir } from '../fs/writable.js';
import { FlowFailedError, NotFoundError, UsageError } from '../errors.js';
import { render } from '../output/render.js';
import { examples, marketFlag, parseIntArg, type Run } from './util.js';

export interface SmokeOptions {
  provider: string;
  market: string;
  junit?: string;
  report?: string;
  keep: boolean;
  connectTimeoutS: number;
}

interface Flags {
  provider: string;
  market: string;
  junit?: string;
  report?: string;
  keep?: boolean;
  connectTimeout: string;
}

export function newCmdSmoke(smoke: Command, ctx: Context, run: Run<SmokeOptions> = smokeRun): Command {
  smoke
    .option('--provider <name>', 'test provider to connect', 'se-test-password')
    .option('--market <code>', 'market of the test user', 'SE')
    .option('--junit <file>', 'write a JUnit XML report')
    .option('--report <file>', 'write a JSON report')
    .option('--keep', 'leave the test users in place')
    .option('--connect-timeout <seconds>', 'how long connecting the test provider may take', '120')
    .action(async (o: Flags) => {
      // an empty name asked for GET /api/v1/providers/ and ran the suite with no provider
      if (!o.provider.trim())
        throw new UsageError('--provider: give a test provider name', {
          hint: 'list the test providers with `bankctl providers list --only-test`',
        });
      return run(ctx, {
        provider: o.provider,
        market: marketFlag(o.market)!,
        junit: o.junit,
        report: o.report,
        keep: Boolean(o.keep),
        connectTimeoutS: parseIntArg(o.connectTimeout, '--connect-timeout', { min: 1 })!,
      });
    });
  return examples(smoke, [
    "bankctl smoke                                   # against the profile's base URL",
    'bankctl smoke --junit smoke.xml --report smoke.json',
    'bankctl smoke --profile staging --provider se-test-password --keep',
    'bankctl smoke --provider se-test-other-eid-successful   # every test provider type completes on the sandbox',
  ]);
}

export const registerSmoke = (smoke: Command, ctx: Context): void => void newCmdSmoke(smoke, ctx);

export async function smokeRun(ctx: Context, o: SmokeOptions): Promise<void> {
  // a report that cannot be written is said before the checks create anything on the service
  for (const [file, what] of [
    [o.junit, 'the JUnit report'],
    [o.report, 'the report'],
  ] as const) {
    if (file === undefined) continue;
    try {
      assertWritableDir(resolve(ctx.io.cwd, file));
    } catch (err) {
      throw fileError(err, file, 'write', what);
    }
  }
  // the suite creates and deletes users, credentials, connector users and a webhook: on a protected
  // profile (`config set protected true`) that is a change like any other, asked first (or --yes)
  const { confirmProtected } = await import('../prompts/confirm.js');
  await confirmProtected(ctx, 'bankctl smoke', 'creates and deletes test users, credentials and connector data');
  const { runSmoke, junitXml, needsPerson, smokeFields } = await import('../flows/smoke.js');
  const api = await ctx.api();
  // the provider first: one that needs a person is refused before anything is created
  const { findProvider } = await import('../api/providers.js');
  const { isSandbox } = await import('../api/sandbox.js');
  const onSandbox = await isSandbox(api);
  // as the app, like the checks that follow (they make a user of their own): the profile's acting
  // user, one a `sandbox reset` deleted, made the lookup fail and an eID provider was sent a password
  const asApp = api.as({ ...api.caller, user: undefined, userOverToken: undefined });
  const provider = await findProvider(asApp, o.provider).catch((err: unknown) => {
    // findProvider's own not-found: a 404 from elsewhere (a token grant) is not the provider's
    if (err instanceof NotFoundError)
      throw new UsageError(`--provider: no provider named "${o.provider}"`, {
        hint: 'list the test providers with `bankctl providers list --only-test`',
      });
    // the checks say what else went wrong (a refused client, the network), each in its place
    return undefined;
  });
  const person = onSandbox || !provider ? undefined : needsPerson(provider);
  if (person)
    throw new UsageError(
      `--provider ${o.provider}: ${person}, and ${maskUrlPassword(await ctx.baseUrl())} is not the sandbox`,
      {
        hint: 'pick a test provider that completes by itself (password, eID, decoupled), or run against `bankctl sandbox start`',
      },
    );
  const tokens = await ctx.tokens();
  const host = new URL(await ctx.baseUrl()).hostname;
  const format = await ctx.outputFormat();
  const started = ctx.clock.now();
  const live = ctx.io.stderrIsTTY && ctx.io.stdoutIsTTY && format === 'table';
  let done = 0;
  const results = await runSmoke(
    api,
    tokens,
    {
      provider: o.provider,
      market: o.market,
      keep: o.keep,
      connectTimeoutS: o.connectTimeoutS,
      localWebhooks: ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      now: () => ctx.clock.now(),
      fields: provider && smokeFields(provider, onSandbox),
    },
    (r) => {
      if (ctx.quiet) return;
      const mark = r.status === 'passed' ? '✓' : r.status === 'failed' ? '✗' : '-';
      done++;
      // on a terminal one status line that updates (the table comes after, once); elsewhere one line per check
      if (live) ctx.io.stderr.write(`\r\x1b[K${mark} ${r.name} (${r.ms} ms, ${done} done)`);
      else ctx.io.stderr.write(`${mark} ${r.name} (${r.ms} ms)\n`);
    },
  );
  if (live && done > 0) ctx.io.stderr.write('\r\x1b[K');
  const report = {
    // a CI artifact: a password in the base URL's userinfo is not written into it
    baseUrl: maskUrlPassword(await ctx.baseUrl()),
    startedAt: new Date(started).toISOString(),
    ms: ctx.clock.now() - started,
    results,
  };
  if (o.junit) await writeFileAtomic(resolve(ctx.io.cwd, o.junit), junitXml(results), { what: 'the JUnit report' });
  if (o.report)
    await writeFileAtomic(resolve(ctx.io.cwd, o.report), `${JSON.stringify(report, null, 2)}\n`, {
      what: 'the report',
    });
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
}
