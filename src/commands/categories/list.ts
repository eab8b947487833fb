// `categories list`: the category catalogue, names in the user's or the given locale.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCategories } from '../../api/reads.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { V1_CATEGORY_FIELDS } from '../../contract/item-fields.js';
import { examples, type Run } from '../util.js';

export interface ListOptions {
  locale?: string;
}

export function newCmdList(parent: Command, ctx: Context, run: Run<ListOptions> = listRun): Command {
  const cmd = parent
    .command('list')
    .description(
      "list categories (GET /api/v1/categories); names in the user's locale with a user (--user, BANKCTL_USER or the profile's), else --locale, else en_US",
    )
    .option('--locale <locale>', 'locale of the names when no user is given, e.g. sv_SE')
    .action(async (o: { locale?: string }) => {
      if (o.locale !== undefined && !/^[a-z]{2}(_[A-Z]{2})?$/.test(o.locale))
        throw new UsageError(`--locale must look like en_US or sv_SE, got "${o.locale}"`);
      await run(ctx, { locale: o.locale });
    });
  return examples(cmd, [
    'bankctl categories list',
    'bankctl categories list --locale sv_SE -o csv',
    'bankctl categories list --user $USER_ID -o json | jq ".[] | select(.parent == null)"',
  ]);
}

export async function listRun(ctx: Context, o: ListOptions): Promise<void> {
  // with a user, the service names the categories in the user's locale whatever ?locale says
  if (o.locale !== undefined && (await ctx.userRef()) !== undefined)
    ctx.notice(`the names come in the user's locale: --locale ${o.locale} applies only without a user`);
  const cats = await listCategories(await ctx.api(), o.locale);
  await render(ctx, cats, {
    columns: [
      { header: 'id', path: 'id' },
      { header: 'parent', path: 'parent' },
      { header: 'type', path: 'type' },
      { header: 'code', path: 'code' },
      { header: 'primary', path: 'primaryName' },
      { header: 'secondary', path: 'secondaryName' },
    ],
    declared: V1_CATEGORY_FIELDS,
  });
}
