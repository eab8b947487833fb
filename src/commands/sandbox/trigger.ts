import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { triggerEvent, V2_DATA_EVENTS, WEBHOOK_EVENTS } from '../../api/webhooks.js';
import { ApiError, UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { STATUS_EVENTS_TEXT } from '../../contract/trigger-statuses.js';
import { examples } from '../util.js';
import { sandboxApi } from './shared.js';

export function registerSandboxTrigger(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('trigger')
    .argument('<event>', `the event: ${WEBHOOK_EVENTS.join(', ')}; Events v2: ${V2_DATA_EVENTS.join(', ')}`)
    .description(
      'make the running sandbox emit a realistic event of this kind to the registered webhooks (POST /sandbox/trigger)',
    )
    .option(
      '--credentials-id <id>',
      "the credentials the event concerns, one of the user's (events of one credentials arrive in order)",
    )
    .option(
      '--status <status>',
      `the status in the content (${STATUS_EVENTS_TEXT}; an error status of refresh:finished adds its detailedError)`,
    )
    .action(async (event: string, o: { credentialsId?: string; status?: string }) => {
      const v2 = (V2_DATA_EVENTS as readonly string[]).includes(event);
      if (!v2 && !(WEBHOOK_EVENTS as readonly string[]).includes(event))
        throw new UsageError(`unknown event "${event}"`, {
          hint: `use ${WEBHOOK_EVENTS.join(', ')}, or an Events v2 one: ${V2_DATA_EVENTS.join(', ')}`,
        });
      // --user is the global acting-user flag: the event concerns that user (default: the newest one)
      // no sandbox: exit 2 and one line, as every other `sandbox` verb (it was a client-credentials error, exit 3)
      const api = await sandboxApi(ctx, '`sandbox trigger`');
      const user = await ctx.userRef();
      const r = await triggerEvent(api, {
        event,
        userId: user?.userId ?? user?.externalUserId,
        credentialsId: o.credentialsId,
        status: o.status,
      }).catch((err: unknown) => {
        if (
          err instanceof ApiError &&
          (err.status === 404 || err.status === 405) &&
          !/(user|credentials) .* not found/.test(err.serviceMessage)
        ) {
          err.hint ??= '`sandbox trigger` works only against the local sandbox (`bankctl sandbox start`)';
        }
        // the event concerns the newest user unless --user names one: the credentials may be another's
        if (err instanceof ApiError && err.status === 404 && /^credentials .* not found/.test(err.serviceMessage))
          err.hint ??= user
            ? '`bankctl credentials list` shows the ids of the user'
            : 'the event is about the newest user: pass --user the credentials belong to';
        throw err;
      });
      ctx.notice(
        `emitted ${r.event} for user ${r.userId}: queued for ${r.webhooks} webhook${r.webhooks === 1 ? '' : 's'}`,
      );
      await render(ctx, r, {
        vertical: false,
        columns: [
          { header: 'event', path: 'event' },
          { header: 'user', path: 'userId' },
          { header: 'order key', path: 'orderKey' },
          { header: 'webhooks', path: 'webhooks' },
          ...(v2
            ? [
                { header: 'credentials', path: 'content.credentialsId' },
                { header: 'account', path: 'content.account.id' },
              ]
            : [{ header: 'content id', path: 'content.id' }]),
          { header: 'status', path: 'content.status' },
        ],
      });
    });
  examples(cmd, [
    'bankctl sandbox trigger credentials:update --status AUTHENTICATING',
    'bankctl sandbox trigger transaction:create --user 6e68cc6287704273984567b3300c5823',
    'bankctl sandbox trigger signable-operation:update --status EXECUTED -o json | jq .content',
    'bankctl sandbox trigger refresh:finished --status AUTHENTICATION_ERROR      # Events v2, with detailedError',
    'bankctl sandbox trigger account-transactions:modified --user 6e68cc6287704273984567b3300c5823',
  ]);
}
