// `credentials get ID`: one set of credentials.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Run } from '../util.js';
import { V1_CREDENTIALS_FIELDS } from '../../contract/item-fields.js';

export interface GetOptions {
  id: string;
}

export function newCmdGet(parent: Command, ctx: Context, run: Run<GetOptions> = getRun): Command {
  const cmd = parent
    .command('get')
    .description('show one set of credentials (GET /api/v1/credentials/{id})')
    .argument('<id>', 'credentials id')
    .action(async (id: string) => run(ctx, { id }));
  return examples(cmd, [
    'bankctl credentials get 6e68cc6287704273984567b3300c5822',
    'bankctl credentials get 6e68cc6287704273984567b3300c5822 -o json | jq -r .status',
  ]);
}

export async function getRun(ctx: Context, o: GetOptions): Promise<void> {
  const { getCredentials } = await import('../../api/credentials.js');
  const { render } = await import('../../output/render.js');
  const c = await getCredentials(await ctx.api(), o.id);
  const format = await ctx.outputFormat();
  const spec = { declared: V1_CREDENTIALS_FIELDS };
  if (format === 'json' || format === 'ndjson') return render(ctx, c, spec);
  // table and csv: supplementalInformation (a JSON string holding fields or an app payload) in words
  const { summarizeSupplemental } = await import('../../flows/supplemental.js');
  await render(ctx, { ...c, supplementalInformation: summarizeSupplemental(c.supplementalInformation) }, spec);
}
