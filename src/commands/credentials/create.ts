import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collect, examples } from '../util.js';
import { CREDENTIALS_COLUMNS, keyValues, parseItems } from './shared.js';

export function registerCredentialsCreate(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('create')
    .description(
      'create credentials and start their refresh, without waiting (POST /api/v1/credentials); see `credentials connect` for the whole flow',
    )
    .requiredOption('--provider <name>', 'provider name')
    .option('--field <name=value>', "a field of the provider's credentials (repeatable)", collect)
    .option('--items <items>', 'data to refresh, comma-separated', collect)
    .option('--opt-in', 'ask for account opt-in first')
    .option('--app-uri <url>', 'appUri: where the user returns after a redirect or app login')
    .option('--no-refresh', 'create without starting a refresh (triggerRefresh=false)')
    .action(
      async (o: {
        provider: string;
        field?: string[];
        items?: string[];
        optIn?: boolean;
        appUri?: string;
        refresh: boolean;
      }) => {
        const fields = keyValues(o.field, '--field');
        if (Object.keys(fields).length === 0)
          throw new UsageError('give the credentials fields with --field name=value', {
            hint: `see them with \`bankctl providers get ${o.provider}\``,
          });
        const items = parseItems(o.items);
        const { createCredentials } = await import('../../api/credentials.js');
        const { render } = await import('../../output/render.js');
        const created = await createCredentials(
          await ctx.api(),
          {
            providerName: o.provider,
            fields,
            ...(o.appUri ? { appUri: o.appUri } : {}),
            ...(o.refresh ? {} : { triggerRefresh: false }),
          },
          { items, optIn: o.optIn },
        );
        await render(ctx, created, { columns: CREDENTIALS_COLUMNS });
      },
    );
  examples(cmd, [
    'bankctl credentials create --provider se-test-password --field username=test-user --field password=test-password',
    'ID=$(bankctl credentials create --provider se-test-other-eid-successful --field username=test-user -o json | jq -r .id)',
  ]);
}
