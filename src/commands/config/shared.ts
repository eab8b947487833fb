// What the config verbs share: checking a setting's name, and masking secrets for display.
import { isSettingKey } from '../../context.js';
import { SETTING_KEYS, type SettingKey } from '../../config/store.js';
import { maskSetting } from '../../config/display.js';
import { UsageError } from '../../errors.js';

export function settingKey(k: string): SettingKey {
  if (!isSettingKey(k)) throw new UsageError(`unknown setting "${k}"`, { hint: `keys: ${SETTING_KEYS.join(', ')}` });
  return k;
}

/** Secrets as their first characters and length, a password inside a URL as *** (config/display.ts). */
export const mask = maskSetting;
