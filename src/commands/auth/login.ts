// `auth login`: store the client id and secret in the profile, after the token endpoint accepts them.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { UsageError } from '../../errors.js';
import { normalizeScopes } from '../../auth/tokens.js';
import { examples, type Run } from '../util.js';

export interface LoginOptions {
  scope: string;
  verify: boolean;
}

export function newCmdLogin(parent: Command, ctx: Context, run: Run<LoginOptions> = loginRun): Command {
  const cmd = parent
    .command('login')
    .description('store the OAuth client id and secret in the profile, after checking them against the token endpoint')
    .option('--scope <scopes>', 'scope to request for the check (comma-separated)', 'authorization:grant')
    .option('--no-verify', 'store without checking')
    .action(async (o: { scope: string; verify: boolean }) => {
      ctx.allowUnsavedProfile = true; // it saves the profile
      await run(ctx, { scope: o.scope, verify: o.verify });
    });
  return examples(cmd, [
    'bankctl auth login --client-id 6f1a... --client-secret-stdin < secret.txt',
    'printf %s "$SECRET" | bankctl auth login --client-id "$ID" --client-secret-stdin --profile prod --base-url https://api.example.com',
  ]);
}

/** The client id and secret from the flags, the environment or the profile; asked for on a terminal. */
async function clientCredentials(ctx: Context): Promise<{ clientId: string; secret: string }> {
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
  return { clientId, secret };
}

export async function loginRun(ctx: Context, o: LoginOptions): Promise<void> {
  const { clientId, secret } = await clientCredentials(ctx);
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
}
