import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { render } from '../../output/render.js';
import { examples } from '../util.js';

export function registerStatus(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('status')
    .description('show the profile, base URL, client and the cached tokens with their scopes and expiry')
    .action(async () => {
      const s = await ctx.settings();
      const config = await ctx.config();
      const profile = ctx.profileName();
      const now = ctx.clock.now();
      const tokens = Object.values(config.cachedTokens(profile)).map((t) => ({
        kind: t.kind,
        user: t.user,
        scope: t.scope,
        expiresAt: new Date(t.expiresAt).toISOString(),
        expired: t.expiresAt <= now,
        hasRefreshToken: Boolean(t.refreshToken),
      }));
      const clientId = s.get('client-id');
      const status = {
        profile,
        baseUrl: await ctx.baseUrl(),
        baseUrlSource: s.get('base-url')?.source,
        clientId: clientId?.value ?? null,
        clientIdSource: clientId?.source ?? null,
        clientSecret: s.value('client-secret') ? 'set' : 'not set',
        connectorToken: s.value('connector-token') ? 'set' : 'not set',
        user: (await ctx.userRef()) ?? null,
        configFile: config.file,
        tokens,
      };
      const format = await ctx.outputFormat();
      if (format === 'table') {
        await render(ctx, {
          ...status,
          user: status.user ? JSON.stringify(status.user) : '',
          tokens: `${tokens.length} cached`,
        });
        if (tokens.length > 0) await render(ctx, tokens);
        return;
      }
      await render(ctx, status);
    });
  examples(cmd, ['bankctl auth status', 'bankctl auth status -o json | jq .tokens']);
}
