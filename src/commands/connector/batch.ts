// `connector batch --file F`: several users' ingests in one request, a status per entityId.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ingestBatch } from '../../api/connector.js';
import { MAX_BATCH_ENTITIES, WireError, isObj, validateContainer } from '../../contract/connector-wire.js';
import { ApiError, ServerError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { jsonInput, lineOfField } from './shared.js';

export interface BatchOptions {
  /** A checked CreateTransactionBatch, numbers exact. */
  batch: Record<string, unknown> & { ingestEntities: unknown[] };
}

export function newCmdBatch(parent: Command, ctx: Context, run: Run<BatchOptions> = batchRun): Command {
  const cmd = parent
    .command('batch')
    .description(
      'ingest for several users in one request (POST /connector/batch); prints a status per entityId, exit code of the first failed entity',
    )
    .option(
      '--file <file>',
      'a CreateTransactionBatch: {"ingestEntities": [{"entityId", "externalUserId", "container"}], "withinLimit"} ("-" for stdin)',
    )
    .option('--data <json>', 'the same JSON inline')
    .action(async (o: { file?: string; data?: string }) => run(ctx, { batch: await batchInput(ctx, o) }));
  return examples(cmd, [
    'bankctl connector batch --file batch.json',
    'bankctl connector batch --file batch.json -o json | jq ".[] | select(.httpStatus >= 400)"',
  ]);
}

async function batchInput(ctx: Context, o: { file?: string; data?: string }): Promise<BatchOptions['batch']> {
  const { value, name, lineOf } = await jsonInput(ctx, o, 'the CreateTransactionBatch');
  if (!isObj(value) || !Array.isArray(value.ingestEntities))
    throw new UsageError(`${name}:${lineOf(value)}: expected {"ingestEntities": [...]}`);
  if (value.ingestEntities.length > MAX_BATCH_ENTITIES)
    throw new UsageError(`${name}: more than ${MAX_BATCH_ENTITIES} entities in one batch`);
  for (const e of value.ingestEntities) {
    const line = lineOf(e);
    if (!isObj(e) || typeof e.entityId !== 'string' || typeof e.externalUserId !== 'string')
      throw new UsageError(`${name}:${line}: each entity needs entityId, externalUserId and container`);
    try {
      validateContainer(e.container, 'create');
    } catch (err) {
      if (err instanceof WireError)
        throw new UsageError(
          `${name}:${lineOfField(e.container, err.field, lineOf)}: entity "${e.entityId}": ${err.message}`,
        );
      throw err;
    }
  }
  return value as BatchOptions['batch'];
}

export async function batchRun(ctx: Context, o: BatchOptions): Promise<void> {
  const res = await ingestBatch(await ctx.api(), o.batch);
  const statuses = res?.statuses ?? [];
  await render(ctx, statuses, {
    columns: [
      { header: 'entityId', path: 'entityId' },
      { header: 'httpStatus', path: 'httpStatus' },
      { header: 'error', path: 'response.errorMessage' },
    ],
  });
  // an entity sent without a status (or with one that is no HTTP status) was not answered for:
  // whether it was ingested is unknown, which is no success
  const answered = new Set(
    statuses.filter((s) => Number.isInteger(s.httpStatus) && s.httpStatus >= 100).map((s) => s.entityId),
  );
  const unanswered = o.batch.ingestEntities
    .map((e) => (e as { entityId: string }).entityId)
    .filter((id) => !answered.has(id));
  const failed = statuses.filter((s) => answered.has(s.entityId) && s.httpStatus >= 300);
  const andUnanswered = unanswered.length > 0 ? `; ${unanswered.length} without a status (${unanswered[0]}...)` : '';
  if (failed.length > 0) {
    const f = failed[0]!;
    const msg = (f.response as { errorMessage?: string } | undefined)?.errorMessage ?? '';
    throw new ApiError(
      f.httpStatus,
      'POST',
      '/connector/batch',
      `${failed.length} of ${o.batch.ingestEntities.length} entities failed; first: ${f.entityId}${msg ? `: ${msg}` : ''}${andUnanswered}`,
      f.response,
    );
  }
  if (unanswered.length > 0)
    throw new ServerError(
      `POST /connector/batch answered no status for ${unanswered.length} of ${o.batch.ingestEntities.length} entities (first: ${unanswered[0]}): whether they were ingested is unknown`,
      { hint: 'read the data back (`bankctl connector verify`) before sending those entities again' },
    );
}
