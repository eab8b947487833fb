// `auth login`: store the client id and secret in the profile, after the token endpoint accepts them.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { canPrompt } from '../../io.js';
import { UsageError } from '../../errors.js';
import { normalizeScopes } from '../../auth/tokens.js';
import { examples, type Run } from '../util.js';
import { resolve } from 'node:path';
import { settingProblems } from '../../config/checks.js';

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
  // what is kept with the client is judged as every command judges it (config/checks.ts): with
  // --no-verify, `--base-url ftp://x` or a pin no request can use was stored, and every later
  // command of the profile refused it
  const given = await ctx.settings();
  const toKeep = WHERE.filter((k) => ['flag', 'env'].includes(given.get(k)?.source ?? ''));
  const problems = await settingProblems(given, toKeep, profile);
  if (problems.length > 0) throw new UsageError(problems.join('; '), { hint: 'nothing was stored' });
  if (o.verify) {
    const tm = await ctx.tokens();
    const t = await tm.requestClientToken(normalizeScopes(o.scope));
    ctx.notice(`client credentials accepted by ${await ctx.baseUrl()} (scope ${t.scope ?? o.scope})`);
  }
  const config = await ctx.config();
  config.set(profile, 'client-id', clientId);
  config.set(profile, 'client-secret', secret);
  // where the client was checked goes with it: a profile holding a client secret must not fall back
  // to the local sandbox's address (or 127.0.0.1:8787) on its next command
  const settings = await ctx.settings();
  const kept: string[] = [];
  const saved = config.profile(profile);
  for (const key of WHERE) {
    const set = settings.get(key);
    if (!set || (set.source !== 'flag' && set.source !== 'env')) continue;
    const value = key === 'ca-file' ? resolve(ctx.io.cwd, set.value) : set.value;
    if (saved[key] === value) continue;
    config.set(profile, key, value);
    kept.push(`${key} ${value}`);
  }
  config.clearTokens(profile);
  ctx.notice(`stored in profile "${profile}" (${config.file})${kept.length ? `, with ${kept.join(', ')}` : ''}`);
  const base = settings.get('base-url');
  if (profile !== 'default' && base && (base.source === 'sandbox' || base.source === 'default'))
    ctx.warn(
      `profile "${profile}" has no base URL of its own: it goes to ${base.value}${base.source === 'sandbox' ? ' (the local sandbox)' : ''}; set one with \`bankctl config set base-url URL --profile ${profile}\``,
    );
}

/** The settings that say where (and how) the client was checked, kept in the profile with it. */
const WHERE = ['base-url', 'link-url', 'ca-file', 'pin'] as const;
