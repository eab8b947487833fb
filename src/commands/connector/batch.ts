// `connector batch --file F`: several users' ingests in one request, a status per entityId.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ingestBatch, type BatchStatus } from '../../api/connector.js';
import { MAX_BATCH_ENTITIES, WireError, isObj, validateContainer } from '../../contract/connector-wire.js';
import { ApiError, ServerError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { isoDates, jsonInput, lineOfField } from './shared.js';

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
    const fail = (field: string, message: string) =>
      new UsageError(`${name}:${lineOfField(e.container, field, lineOf)}: entity "${e.entityId}": ${message}`);
    // a date as `connector push` takes it ("2026-01-31") is sent as its epoch milliseconds
    isoDates(e.container, (field, message) => fail(field, `${field}: ${message}`));
    try {
      validateContainer(e.container, 'create');
    } catch (err) {
      if (err instanceof WireError) throw fail(err.field, err.message);
      throw err;
    }
  }
  return value as BatchOptions['batch'];
}

export async function batchRun(ctx: Context, o: BatchOptions): Promise<void> {
  const res = await ingestBatch(await ctx.api(), o.batch);
  const statuses = res.statuses;
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
  // a 409 naming every transaction of its entity, after an attempt that may have stored the batch
  // (no answer, or a 5xx), is that attempt's doing: the entity is on the service
  const earlier = new Set(
    res.mayHaveStored
      ? statuses.filter((s) => s.httpStatus === 409 && allNamed(o.batch, s)).map((s) => s.entityId)
      : [],
  );
  if (earlier.size > 0)
    ctx.warn(
      `${earlier.size} entit${earlier.size === 1 ? 'y' : 'ies'} answered 409 (${[...earlier][0]}...) after an attempt that got no answer or a 5xx: every transaction named is on the service, taken as stored by that attempt`,
    );
  const failed = statuses.filter((s) => answered.has(s.entityId) && s.httpStatus >= 300 && !earlier.has(s.entityId));
  const andUnanswered = unanswered.length > 0 ? `; ${unanswered.length} without a status (${unanswered[0]}...)` : '';
  if (failed.length > 0) {
    const f = failed[0]!;
    const msg = (f.response as { errorMessage?: string } | undefined)?.errorMessage ?? '';
    const maybe =
      res.mayHaveStored && f.httpStatus === 409
        ? ' (an attempt before the answered one got no answer or a 5xx: it may have stored some of this)'
        : '';
    throw new ApiError(
      f.httpStatus,
      'POST',
      '/connector/batch',
      `${failed.length} of ${o.batch.ingestEntities.length} entities failed; first: ${f.entityId}${msg ? `: ${msg}` : ''}${maybe}${andUnanswered}`,
      f.response,
    );
  }
  if (unanswered.length > 0)
    throw new ServerError(
      `POST /connector/batch answered no status for ${unanswered.length} of ${o.batch.ingestEntities.length} entities (first: ${unanswered[0]}): whether they were ingested is unknown`,
      { hint: 'read the data back (`bankctl connector verify`) before sending those entities again' },
    );
}

/** The 409 of `s` names (errorDetails.externalIds) every transaction its entity carried. */
function allNamed(batch: BatchOptions['batch'], s: BatchStatus): boolean {
  const named = (s.response as { errorDetails?: { externalIds?: unknown } } | undefined)?.errorDetails?.externalIds;
  if (!Array.isArray(named) || named.length === 0) return false;
  const have = new Set(named.filter((x): x is string => typeof x === 'string'));
  const entity = batch.ingestEntities.find((e) => isObj(e) && e.entityId === s.entityId);
  if (!isObj(entity) || !isObj(entity.container) || !Array.isArray(entity.container.transactionAccounts)) return false;
  let n = 0;
  for (const ta of entity.container.transactionAccounts) {
    if (!isObj(ta) || !Array.isArray(ta.transactions)) return false;
    for (const t of ta.transactions) {
      if (!isObj(t) || typeof t.externalId !== 'string' || !have.has(t.externalId)) return false;
      n++;
    }
  }
  return n > 0;
}
