// How a stored setting is shown (config list, config explain): secrets as their first characters
// and length, and a password in a URL's userinfo (https://user:pw@host) as ***.
import { SECRET_KEYS } from './store.js';

export function maskSetting(key: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // the first four characters only of a long secret: of a short one they would be most of it
  if (SECRET_KEYS.has(key))
    return value.length >= 16 ? `${value.slice(0, 4)}…(${value.length} chars)` : `…(${value.length} chars)`;
  return maskUrlPassword(value);
}

/** A URL with a password in its userinfo, shown without it; anything else as it is. */
export function maskUrlPassword(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)) return value;
  try {
    const u = new URL(value);
    if (!u.password) return value;
    u.password = '***';
    return u.toString().replace(/%2A%2A%2A@/, '***@');
  } catch {
    // not a URL after all: mask everything between :// and the last @ of the authority
    return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*:)[^/?#]*@/i, '$1***@');
  }
}
