// `sandbox reset [--keep-clients]`: an empty store, for a clean state between test cases.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { render } from '../../output/render.js';
import { examples, type Run } from '../util.js';
import { sandboxApi } from './shared.js';

export interface ResetOptions {
  keepClients: boolean;
}

export function newCmdReset(parent: Command, ctx: Context, run: Run<ResetOptions> = resetRun): Command {
  const cmd = parent
    .command('reset')
    .description(
      'delete every user, credentials, account, transaction, webhook and token of the sandbox; ' +
        'without --keep-clients the sandbox also gets a new client id, secret and connector token (printed)',
    )
    .option('--keep-clients', 'keep the client id, secret and connector token working')
    // -y/--yes is the root's (as for every destructive command): the shared confirm reads ctx.globals
    .action(async (o: { keepClients?: boolean }) => run(ctx, { keepClients: Boolean(o.keepClients) }));
  return examples(cmd, [
    'bankctl sandbox reset --keep-clients --yes   # between test cases',
    'bankctl sandbox reset --yes -o json | jq -r .clientSecret',
  ]);
}

export async function resetRun(ctx: Context, o: ResetOptions): Promise<void> {
  const api = await sandboxApi(ctx, '`sandbox reset`');
  // asked on a terminal (the profile's name typed when it is protected); without one it needs --yes
  const { confirmDestructive } = await import('../../prompts/confirm.js');
  await confirmDestructive(ctx, { action: `delete all data of the sandbox at ${await ctx.baseUrl()}` });
  const { resetSandbox } = await import('../../api/sandbox.js');
  const r = await resetSandbox(api, o.keepClients);
  // the sandbox deleted every token: cached ones would be handed out by `auth token` and refused
  (await ctx.config()).updateTokensOf(await ctx.baseUrl(), () => undefined);
  if (!o.keepClients) {
    // the running sandbox rewrote its state file; a profile or BANKCTL_* variables with the old client need the new one
    ctx.notice('the sandbox is empty and has a new client id, secret and connector token');
  } else ctx.notice('the sandbox is empty; its client and connector token still work');
  // the table (one object, shown vertically) has every field of the answer; csv has the same ones
  // (it had clientId alone: less than json said)
  await render(ctx, r, {
    columns: [
      { header: 'reset', path: 'reset' },
      { header: 'keepClients', path: 'keepClients' },
      { header: 'clientId', path: 'clientId' },
      ...(o.keepClients
        ? []
        : [
            { header: 'clientSecret', path: 'clientSecret' },
            { header: 'connectorToken', path: 'connectorToken' },
          ]),
    ],
  });
}
