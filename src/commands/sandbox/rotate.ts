import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { rotateConnectorToken } from '../../api/webhooks.js';
import { UsageError } from '../../errors.js';
import { render } from '../../output/render.js';
import { examples, parseIntArg } from '../util.js';
import { sandboxApi } from './shared.js';
import { readState, writeState } from '../../config/sandbox-state.js';

export function registerSandboxRotate(parent: Command, ctx: Context): void {
  const cmd = parent
    .command('rotate-connector-token')
    .description(
      "issue a new connector token; the current one stays valid for --grace seconds, then answers 401 (the service's renewal grace)",
    )
    .option('--grace <seconds>', 'how long the current token stays valid', '60')
    .option(
      '--save-next',
      "store the new token as the profile's connector-token-next, so running pushes switch to it on a 401",
    )
    .action(async (o: { grace: string; saveNext?: boolean }) => {
      const grace = parseIntArg(o.grace, '--grace', { min: 0, max: 86_400 })!;
      // no sandbox: exit 2 and one line, as every other `sandbox` verb (it was exit 8 after the retries)
      const api = await sandboxApi(ctx, '`sandbox rotate-connector-token`');
      const settings = await ctx.settings();
      const current = settings.value('connector-token');
      if (!current)
        throw new UsageError(
          'no connector token to rotate: --connector-token, BANKCTL_CONNECTOR_TOKEN, or a running sandbox',
        );
      const res = await rotateConnectorToken(api, current, grace);
      const state = readState(ctx.configDir);
      if (state && state.connectorToken === current) writeState(ctx.configDir, { ...state, connectorToken: res.token });
      if (o.saveNext) {
        const config = await ctx.config();
        config.set(ctx.profileName(), 'connector-token-next', res.token);
        ctx.notice(`stored as connector-token-next in profile "${ctx.profileName()}"`);
      }
      ctx.notice(`the previous connector token stays valid for ${grace} s`);
      await render(ctx, { token: res.token, previousValidForSeconds: grace });
    });
  examples(cmd, [
    'bankctl sandbox rotate-connector-token --grace 120 --save-next',
    'NEW=$(bankctl sandbox rotate-connector-token -o json | jq -r .token)',
  ]);
}
