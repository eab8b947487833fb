// `consents v2`: connectivity v2 consents (Beta in the vendor reference); `consents list|delete|update-link`
// stay the v1 provider consents.
import type { Command } from 'commander';
import type { Context } from '../../../context.js';
import { examples } from '../../util.js';
import { newCmdCreate } from './create.js';
import { newCmdList } from './list.js';
import { newCmdGet } from './get.js';
import { newCmdRevoke } from './revoke.js';
import { newCmdTemplates } from './templates.js';
import { newCmdAuthorize } from './authorize.js';
import { newCmdAuthorizations } from './authorizations.js';
import { newCmdRelayCallback } from './relay-callback.js';

export function registerConsentsV2(consents: Command, ctx: Context): void {
  const v2 = consents
    .command('v2')
    .description('connectivity v2 consents (Beta): create, list, get, revoke, templates, authorize, authorizations');
  newCmdCreate(v2, ctx);
  newCmdList(v2, ctx);
  newCmdGet(v2, ctx);
  newCmdRevoke(v2, ctx);
  newCmdTemplates(v2, ctx);
  newCmdAuthorize(v2, ctx);
  newCmdAuthorizations(v2, ctx);
  newCmdRelayCallback(v2, ctx);
  examples(v2, [
    'bankctl consents v2 templates se-test-open-banking-redirect',
    'bankctl consents v2 create --provider se-test-open-banking-redirect --for-user $USER_ID --currency SEK --max-amount 100 --limit MONTH=500 --payee-name Savings --payee-number 123456',
    'bankctl consents v2 authorize $CONSENT_ID --user $USER_ID --wait',
  ]);
}
