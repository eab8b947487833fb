// `sandbox load FILE`: a scenario from a fixtures document (users, credentials, accounts,
// transactions, connector users, webhooks). Validated first: every problem as FILE#/json/pointer,
// exit 2, nothing loaded. Idempotent: loading the same file again changes nothing.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { stripControl } from '../../output/sanitize.js';
import { examples, type Run } from '../util.js';
import { readInput, sandboxApi } from './shared.js';

export interface LoadOptions {
  file: string;
}

export function newCmdLoad(parent: Command, ctx: Context, run: Run<LoadOptions> = loadRun): Command {
  const cmd = parent
    .command('load')
    .argument('<file>', 'a fixtures document (JSON; - for stdin); see README "Scenarios from a file"')
    .description(
      'load users, credentials, accounts, transactions, connector users and webhooks from a fixtures file; prints the id of each name',
    )
    .action(async (file: string) => run(ctx, { file }));
  return examples(cmd, [
    'bankctl sandbox load scenario.json',
    'bankctl sandbox load scenario.json -o json | jq -r .users.alice',
    'bankctl sandbox start --detach --fixtures scenario.json',
  ]);
}

/** The document's problems as one usage error: FILE#/pointer: message, one a line. */
export function fixtureProblems(file: string, problems: Array<{ pointer: string; message: string }>): UsageError {
  const lines = problems.map((p) => `  ${file}#${p.pointer}: ${stripControl(p.message)}`);
  return new UsageError(
    `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing was loaded\n${lines.join('\n')}`,
  );
}

/** The loaded map as rows: kind, name, id. */
export function loadedRows(r: Record<string, unknown>): Array<{ kind: string; name: string; id: string }> {
  const rows: Array<{ kind: string; name: string; id: string }> = [];
  for (const [kind, map] of Object.entries(r))
    if (map && typeof map === 'object')
      for (const [name, id] of Object.entries(map)) rows.push({ kind, name, id: String(id) });
  return rows;
}

export async function loadRun(ctx: Context, o: LoadOptions): Promise<void> {
  const text = await readInput(ctx, o.file, 'sandbox load');
  try {
    JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${o.file}: not JSON: ${(err as Error).message}`);
  }
  const api = await sandboxApi(ctx, '`sandbox load`');
  const { loadFixtures } = await import('../../api/sandbox.js');
  let r: Record<string, unknown>;
  try {
    r = await loadFixtures(api, text);
  } catch (err) {
    const problems = (err as ApiError).body as {
      errorDetails?: { problems?: Array<{ pointer: string; message: string }> };
    };
    if (err instanceof ApiError && err.status === 400 && problems?.errorDetails?.problems)
      throw fixtureProblems(o.file === '-' ? 'stdin' : o.file, problems.errorDetails.problems);
    throw err;
  }
  ctx.notice(
    r.created === 0
      ? `${o.file}: already loaded, nothing changed`
      : `${o.file}: loaded (${String(r.created)} objects made)`,
  );
  const format = await ctx.outputFormat();
  if (format === 'json') {
    await render(ctx, r);
    return;
  }
  await render(ctx, loadedRows(r), {
    columns: [
      { header: 'kind', path: 'kind' },
      { header: 'name', path: 'name' },
      { header: 'id', path: 'id' },
    ],
  });
}
