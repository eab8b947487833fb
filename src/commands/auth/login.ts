import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { UsageError } from '../../errors.js';
import { normalizeScopes } from '../../auth/tokens.js';
import { examples } from '../util.js';

export function registerLogin(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('login')
    .description('store the OAuth client id and secret in the profile, after checking them against the token endpoint')
    .option('--scope <scopes>', 'scope to request for the check (comma-separated)', 'authorization:grant')
    .option('--no-verify', 'store without checking')
    .action(async (o: { scope: string; verify: boolean }) => {
      const settings = await ctx.settings();
      let clientId = ctx.globals.clientId ?? settings.value('client-id');
      let secret =
        ctx.globals.clientSecret ??
        (ctx.globals.clientSecretStdin ? await ctx.readSecretFromStdin() : undefined) ??
        ctx.env.BANKCTL_CLIENT_SECRET;
      if ((!clientId || !secret) && canPrompt(ctx.io)) {
        const p = await ctx.prompter();
        clientId ??= await p.input({ message: 'Client id', validate: (v) => (v.trim() ? true : 'required') });
        secret ??= await p.password({ message: 'Client secret', validate: (v) => (v.trim() ? true : 'required') });
      }
      if (!clientId) throw new UsageError('a client id is needed: --client-id ID (or BANKCTL_CLIENT_ID)');
      if (!secret) throw new UsageError('a client secret is needed: --client-secret-stdin (or BANKCTL_CLIENT_SECRET)');
      ctx.globals.clientId = clientId;
      ctx.globals.clientSecret = secret;
      ctx.invalidate();
      const profile = ctx.profileName();
      if (o.verify) {
        const tm = await ctx.tokens();
        const t = await tm.requestClientToken(normalizeScopes(o.scope));
        ctx.notice(`client credentials accepted by ${await ctx.baseUrl()} (scope ${t.scope ?? o.scope})`);
      }
      const config = await ctx.config();
      config.set(profile, 'client-id', clientId);
      config.set(profile, 'client-secret', secret);
      config.clearTokens(profile);
      ctx.notice(`stored in profile "${profile}" (${config.file})`);
    });
  examples(cmd, [
    'bankctl auth login --client-id 6f1a... --client-secret-stdin < secret.txt',
    'printf %s "$SECRET" | bankctl auth login --client-id "$ID" --client-secret-stdin --profile prod --base-url https://api.example.com',
  ]);
}
