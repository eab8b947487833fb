// What the config verbs share: checking a setting's name, confirming a change to a protected
// profile, and masking secrets for display.
import { isSettingKey, type Context } from '../../context.js';
import { SETTING_KEYS, type SettingKey } from '../../config/store.js';
import { maskSetting } from '../../config/display.js';
import { UsageError } from '../../errors.js';
import { confirmProtected } from '../../prompts/confirm.js';

export function settingKey(k: string): SettingKey {
  if (!isSettingKey(k)) throw new UsageError(`unknown setting "${k}"`, { hint: `keys: ${SETTING_KEYS.join(', ')}` });
  return k;
}

/**
 * `config set`/`config unset` on a protected profile: its name typed, or --yes (as for every command
 * that changes a protected profile). `config set protected true` asks nothing: it only guards more.
 */
export async function confirmSettingChange(
  ctx: Context,
  verb: 'set' | 'unset',
  key: SettingKey,
  value?: string,
): Promise<void> {
  if (verb === 'set' && key === 'protected' && value === 'true') return;
  await confirmProtected(ctx, `bankctl config ${verb} ${key}`, 'changes its settings');
}

/** Secrets as their first characters and length, a password inside a URL as *** (config/display.ts). */
export const mask = maskSetting;
