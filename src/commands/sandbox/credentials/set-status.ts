// `sandbox credentials set-status ID STATUS`: puts existing credentials into a status of the status
// machine, with the webhooks and refresh behaviour that status implies.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { SETTABLE_CREDENTIALS_STATUSES } from '../../../contract/vocabulary.js';
import { UsageError } from '../../../errors.js';
import { render } from '../../../output/render.js';
import { examples, type Run } from '../../util.js';
import { sandboxApi } from '../shared.js';

export interface SetStatusOptions {
  id: string;
  status: string;
  payload?: string;
}

export function newCmdSetStatus(parent: Command, ctx: Context, run: Run<SetStatusOptions> = setStatusRun): Command {
  const cmd = parent
    .command('set-status')
    .argument('<id>', 'credentials id')
    .argument('<status>', `the status: ${SETTABLE_CREDENTIALS_STATUSES.join(', ')}`)
    .option('--payload <text>', 'the statusPayload to show (default: a message fitting the status)')
    .description(
      'put existing credentials into a status (sandbox only): errors end the refresh with their error details; ' +
        'AWAITING_* statuses start a real round that `credentials supplement` or the app answers; ' +
        'SESSION_EXPIRED makes refreshes end SESSION_EXPIRED until `credentials authenticate` or the update-consent page',
    )
    .action(async (id: string, status: string, o: { payload?: string }) => {
      const s = status.toUpperCase();
      if (!SETTABLE_CREDENTIALS_STATUSES.includes(s))
        throw new UsageError(`unknown status "${status}"`, {
          hint: `use one of ${SETTABLE_CREDENTIALS_STATUSES.join(', ')}${s === 'DELETED' ? ' (delete with `bankctl credentials delete`)' : ''}`,
        });
      if (o.payload !== undefined && o.payload.length > 1000)
        throw new UsageError('--payload must be at most 1000 characters');
      await run(ctx, { id, status: s, payload: o.payload });
    });
  return examples(cmd, [
    'bankctl sandbox credentials set-status 6e68cc6287704273984567b3300c5822 AUTHENTICATION_ERROR',
    'bankctl sandbox credentials set-status 6e68cc6287704273984567b3300c5822 TEMPORARY_ERROR --payload "Bank down for maintenance"',
    'bankctl sandbox credentials set-status 6e68cc6287704273984567b3300c5822 SESSION_EXPIRED   # then: credentials refresh ID --wait -> exit 9',
  ]);
}

export async function setStatusRun(ctx: Context, o: SetStatusOptions): Promise<void> {
  const api = await sandboxApi(ctx, '`sandbox credentials set-status`');
  const { setCredentialsStatus } = await import('../../../api/sandbox.js');
  const c = await setCredentialsStatus(api, o.id, o.status, o.payload);
  ctx.notice(`credentials ${c.id} are now ${c.status}`);
  await render(ctx, c, {
    vertical: false,
    columns: [
      { header: 'id', path: 'id' },
      { header: 'status', path: 'status' },
      { header: 'statusPayload', path: 'statusPayload' },
      { header: 'error', path: 'detailedError.details.reason' },
    ],
  });
}
