// What the config verbs share: checking a setting's name, and masking secrets for display.
import { isSettingKey } from '../../context.js';
import { SECRET_KEYS, SETTING_KEYS, type SettingKey } from '../../config/store.js';
import { UsageError } from '../../errors.js';

export function settingKey(k: string): SettingKey {
  if (!isSettingKey(k)) throw new UsageError(`unknown setting "${k}"`, { hint: `keys: ${SETTING_KEYS.join(', ')}` });
  return k;
}

export function mask(k: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  return SECRET_KEYS.has(k) ? `${v.slice(0, 4)}…(${v.length} chars)` : v;
}
