// `insights action ID --action TYPE`: report what the user did about an insight, which archives it.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { selectInsightAction } from '../../api/insights.js';
import { UsageError } from '../../errors.js';
import { examples, type Run } from '../util.js';

export interface ActionOptions {
  id: string;
  action: string;
}

export function newCmdAction(parent: Command, ctx: Context, run: Run<ActionOptions> = actionRun): Command {
  const cmd = parent
    .command('action')
    .argument('<id>', 'id of an active insight')
    .requiredOption(
      '--action <type>',
      'the action the user chose, one the insight offers (e.g. ACKNOWLEDGE, DISMISS, CREATE_TRANSFER)',
    )
    .description('report the action taken on an insight, which archives it (POST /api/v1/insights/action)')
    .action(async (id: string, o: { action: string }) => {
      const action = o.action.trim().toUpperCase();
      if (!/^[A-Z_]+$/.test(action))
        throw new UsageError(`--action must be an action type such as ACKNOWLEDGE, got "${o.action}"`);
      await run(ctx, { id, action });
    });
  return examples(cmd, ['bankctl insights action e2b746ed27c542ce846a8d693474df21 --action ACKNOWLEDGE']);
}

export async function actionRun(ctx: Context, o: ActionOptions): Promise<void> {
  await selectInsightAction(await ctx.api(), o.id, o.action);
  ctx.notice(`insight ${o.id} archived after ${o.action}`);
}
