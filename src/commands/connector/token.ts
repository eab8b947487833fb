// `connector token --user U --scope S`: a user access token for a user, printed bare.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { generateToken } from '../../api/connector.js';
import { MAX_TOKEN_TTL } from '../../contract/connector-wire.js';
import { UsageError } from '../../errors.js';
import { collect, examples, parseIntArg, printsBare, splitList, type Run } from '../util.js';
import { externalUser } from './shared.js';

export interface TokenOptions {
  userId: string;
  scopes: string[];
  ttl?: number;
  origin?: string;
}

export function newCmdToken(parent: Command, ctx: Context, run: Run<TokenOptions> = tokenRun): Command {
  const cmd = parent
    .command('token')
    .description('generate a user access token (POST /connector/v2/tokens/generate); prints the bare token')
    .option('--user <id>', 'the user (externalId, or the user id)')
    .option('--scope <scopes>', 'scopes, comma-separated or repeated (e.g. transactions:read,accounts:read)', collect)
    .option('--ttl <seconds>', `lifetime in seconds, at most ${MAX_TOKEN_TTL}`)
    .option('--origin <name>', 'identifier of the requesting service')
    .action(async (o: { user?: string; scope?: string[]; ttl?: string; origin?: string }) => {
      const userId = await externalUser(ctx, o.user);
      const scopes = splitList(o.scope, '--scope');
      if (scopes.length === 0)
        throw new UsageError('--scope is required, e.g. --scope transactions:read,accounts:read');
      const ttl = parseIntArg(o.ttl, '--ttl', { min: 1, max: MAX_TOKEN_TTL });
      await run(ctx, { userId, scopes, ttl, origin: o.origin });
    });
  printsBare(cmd, 'the bare token');
  return examples(cmd, [
    'TOKEN=$(bankctl connector token --user alice --scope transactions:read,accounts:read --ttl 600)',
    'curl -H "Authorization: Bearer $TOKEN" "$BASE/data/v2/transactions"',
  ]);
}

export async function tokenRun(ctx: Context, o: TokenOptions): Promise<void> {
  const t = await generateToken(await ctx.api(), o);
  ctx.io.stdout.write(`${t.token}\n`);
  if (typeof t.expiry === 'number') ctx.notice(`expires ${new Date(t.expiry).toISOString()}`);
}
