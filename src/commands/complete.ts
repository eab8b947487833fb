// `bankctl __complete KIND [PREFIX]` (hidden): values a user cannot remember, for the shell
// completions: provider names, credentials ids, account ids, profile names, event names,
// statistics types and resolutions. Fast (a network call gets 300 ms and no retry) and silent:
// on any error it prints nothing and exits 0, so a completion never shows an error.
import type { Command } from 'commander';
import type { Context } from '../context.js';

async function values(ctx: Context, kind: string): Promise<string[]> {
  switch (kind) {
    case 'profiles':
      return (await ctx.config()).profileNames();
    case 'events':
      return [...(await import('../contract/wire.js')).WEBHOOK_EVENTS];
    case 'events-v2':
      return [...(await import('../contract/webhook-signature.js')).V2_EVENTS];
    case 'events-all':
      return [
        ...(await import('../contract/wire.js')).WEBHOOK_EVENTS,
        ...(await import('../contract/webhook-signature.js')).V2_EVENTS,
      ];
    case 'statistics-types':
      return [...(await import('../api/statistics.js')).STATISTIC_TYPES];
    case 'resolutions':
      return [...(await import('../api/statistics.js')).RESOLUTIONS];
  }
  ctx.globals.timeout = '0.3';
  ctx.globals.retries = '0';
  const api = await ctx.api();
  switch (kind) {
    case 'providers': {
      const { listProviders } = await import('../api/providers.js');
      return (await listProviders(api, { includeTestProviders: true })).map((p) => String(p.name));
    }
    case 'credentials': {
      const { listCredentials } = await import('../api/credentials.js');
      return (await listCredentials(api)).map((c) => String(c.id));
    }
    case 'accounts': {
      const { listAccounts } = await import('../api/accounts.js');
      return (await listAccounts(api)).map((a) => String(a.id));
    }
  }
  return [];
}

export function registerComplete(program: Command, ctx: Context): void {
  program
    .command('__complete', { hidden: true })
    .argument('<kind>')
    .argument('[prefix]')
    .allowUnknownOption()
    .action(async (kind: string, prefix = '') => {
      try {
        const words = (await values(ctx, kind)).filter((w) => w.startsWith(prefix) && !/\s/.test(w));
        if (words.length > 0) ctx.io.stdout.write(`${words.join('\n')}\n`);
      } catch {
        // a completion never prints an error
      }
    });
}
