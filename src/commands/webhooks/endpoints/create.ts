// `webhooks endpoints create --url U --event E ...`: an Events v2 endpoint (POST
// /events/v2/webhook-endpoints). The service generates the signing secret and returns it this once:
// it is printed on stdout, and kept in the profile (webhook-secret, in the 0600 config file) with
// --save-secret, where `webhooks listen` finds it.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { createWebhookEndpoint } from '../../../api/webhooks.js';
import { ServerError, UsageError } from '../../../errors.js';
import { collect, examples, savedAfterChange, type Run } from '../../util.js';
import { SECRET_SETTING } from '../shared.js';
import { endpointUrl, renderEndpoints, v2Events } from './shared.js';

export interface CreateOptions {
  url: string;
  events: string[];
  description?: string;
  disabled: boolean;
  saveSecret: boolean;
}

interface Flags {
  url: string;
  event?: string[];
  description?: string;
  disabled?: boolean;
  saveSecret?: boolean;
}

export function newCmdCreate(parent: Command, ctx: Context, run: Run<CreateOptions> = createRun): Command {
  const cmd = parent
    .command('create')
    .description(
      'register an Events v2 webhook endpoint (POST /events/v2/webhook-endpoints); its secret is shown this once',
    )
    .requiredOption('--url <url>', 'where the service POSTs events (https; the sandbox also takes http on loopback)')
    .option('--event <name>', 'an Events v2 event to receive (repeatable, or comma-separated)', collect)
    .option('--description <text>', 'what the endpoint is for')
    .option('--disabled', 'create it disabled (no deliveries until `update --enable`)')
    .option('--save-secret', `keep the secret in the profile (${SECRET_SETTING}) for \`webhooks listen\``)
    .action(async (o: Flags) =>
      run(ctx, {
        url: endpointUrl(o.url),
        events: v2Events(o.event, true)!,
        description: o.description,
        disabled: Boolean(o.disabled),
        saveSecret: Boolean(o.saveSecret),
      }),
    );
  return examples(cmd, [
    'bankctl webhooks endpoints create --url https://hooks.example.com/tink --event refresh:finished --save-secret',
    'bankctl webhooks endpoints create --url https://hooks.example.com/tink --event account-transactions:modified,account:created --description "ledger sync" -o json | jq -r .secret',
  ]);
}

export async function createRun(ctx: Context, o: CreateOptions): Promise<void> {
  // the saved secret is another endpoint's, which the service never shows again: replacing it
  // silently would leave that endpoint's deliveries unverifiable (412 in `webhooks listen`) for good
  if (o.saveSecret && !ctx.globals.yes && (await ctx.settings()).value(SECRET_SETTING))
    throw new UsageError(
      `profile "${ctx.profileName()}" already holds a ${SECRET_SETTING}, another endpoint's: nothing was created`,
      {
        hint: `give --yes to replace it (that endpoint's secret is not shown again), or create without --save-secret and keep the new secret yourself`,
      },
    );
  const created = await createWebhookEndpoint(await ctx.api(), {
    url: o.url,
    enabledEvents: o.events,
    ...(o.description !== undefined ? { description: o.description } : {}),
    ...(o.disabled ? { disabled: true } : {}),
  });
  const secret = typeof created.secret === 'string' && created.secret !== '' ? created.secret : undefined;
  // the endpoint (and its secret, shown only now) first: a config that cannot be written must not lose it
  await renderEndpoints(ctx, created, { keepSecret: true, vertical: true });
  // the service shows the secret only in this answer: without it no delivery to the endpoint can
  // be verified, ever (it was exit 0 unless --save-secret, and then 9)
  if (!secret)
    throw new ServerError(
      `POST /events/v2/webhook-endpoints created endpoint ${created.id} but answered without its secret: its deliveries cannot be verified`,
      { hint: `delete it (\`bankctl webhooks endpoints delete ${created.id}\`) and create it again` },
    );
  if (o.saveSecret) {
    await savedAfterChange(`endpoint ${created.id} was created (its secret is on stdout)`, async () =>
      (await ctx.config()).set(ctx.profileName(), SECRET_SETTING, secret),
    );
  }
  ctx.notice(
    `registered webhook endpoint ${created.id} for ${o.events.join(', ')}${
      o.saveSecret
        ? `; its secret is saved in profile "${ctx.profileName()}" (${SECRET_SETTING})`
        : '; its secret is shown only now: keep it (or create with --save-secret)'
    }`,
  );
}
