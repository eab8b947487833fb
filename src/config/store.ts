// Profiles and the token cache, under BANKCTL_CONFIG_DIR (default: the platform config dir).
// Files are 0600 in a 0700 directory, written atomically under a lock (src/config/json-file.ts); a
// corrupt file is an error naming the file and is never reset; a directory or file that another
// user owns or can write to is refused.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { JsonFile } from './json-file.js';
import { checkPrivate, tightenFile } from './private.js';

export const SANDBOX_DEFAULT_URL = 'http://127.0.0.1:8787';

/** Keys of a profile: the long option names. */
export const SETTING_KEYS = [
  'base-url',
  'link-url',
  'client-id',
  'client-secret',
  'token',
  'connector-token',
  'connector-token-next',
  'basic',
  'user',
  'external-user',
  'output',
  'timeout',
  'retries',
  'max-response-size',
  'ca-file',
  'pin',
  'webhook-secret',
  'protected',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
export const SECRET_KEYS = new Set<string>([
  'client-secret',
  'token',
  'connector-token',
  'connector-token-next',
  'basic',
  'webhook-secret',
]);

export type Profile = Partial<Record<SettingKey, string>>;

type ConfigShape = {
  current?: string;
  profiles?: Record<string, Profile>;
};

type TokenShape = Record<string, Record<string, CachedToken>>;

export interface CachedToken {
  accessToken: string;
  refreshToken?: string;
  scope: string;
  /** epoch ms */
  expiresAt: number;
  kind: 'client' | 'user';
  user?: string;
  baseUrl: string;
  clientId?: string;
  refreshExpiresAt?: number;
}

export function defaultConfigDir(env: Record<string, string | undefined>): string {
  if (env.BANKCTL_CONFIG_DIR) return env.BANKCTL_CONFIG_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'bankctl');
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'bankctl', 'Config');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'bankctl');
}

export class ConfigStore {
  /** The files open() tightened to 0600, with the mode they had (doctor reports them). */
  readonly tightened = new Map<string, number>();
  private readonly config: JsonFile<ConfigShape>;
  private readonly tokens: JsonFile<TokenShape>;

  constructor(readonly dir: string) {
    this.config = new JsonFile(join(dir, 'config.json'), 'the config file');
    this.tokens = new JsonFile(join(dir, 'tokens.json'), 'the token cache');
  }

  get file(): string {
    return this.config.path;
  }

  get tokenFile(): string {
    return this.tokens.path;
  }

  /** Refuses a config directory that another user owns or can write to (exit 2, naming it). */
  static async open(dir: string): Promise<ConfigStore> {
    checkPrivate(dir, 'directory');
    const store = new ConfigStore(dir);
    // the token cache is read only by commands that need a token: tightened here, whatever runs
    for (const f of [store.file, store.tokenFile]) {
      const was = tightenFile(f);
      if (was !== undefined) store.tightened.set(f, was);
    }
    return store;
  }

  /** Profiles exist once anything is stored in them; `default` always exists. */
  profileNames(): string[] {
    const names = Object.keys(this.readProfiles());
    if (!names.includes('default')) names.unshift('default');
    return names;
  }

  currentProfile(): string {
    const current = this.config.read()?.current;
    return typeof current === 'string' && current ? current : 'default';
  }

  useProfile(name: string): void {
    this.updateConfig((c) => {
      const profiles = profilesOf(c, this.file);
      return { ...c, current: name, profiles: profiles[name] ? profiles : { ...profiles, [name]: {} } };
    });
  }

  profile(name: string): Profile {
    return this.readProfiles()[name] ?? {};
  }

  private readProfiles(): Record<string, Profile> {
    return profilesOf(this.config.read() ?? {}, this.file);
  }

  /** A read-modify-write of the config file under its lock: concurrent processes lose nothing. */
  private updateConfig(fn: (c: ConfigShape) => ConfigShape): void {
    this.config.update((c) => fn(c ?? {}));
  }

  private updateProfile(profileName: string, fn: (p: Profile) => Profile): void {
    this.updateConfig((c) => {
      const profiles = profilesOf(c, this.file);
      return { ...c, profiles: { ...profiles, [profileName]: fn({ ...profiles[profileName] }) } };
    });
  }

  set(profileName: string, key: SettingKey, value: string): void {
    this.updateProfile(profileName, (p) => ({ ...p, [key]: value }));
  }

  unset(profileName: string, key: SettingKey): void {
    this.deleteProfileSettings(profileName, [key]);
  }

  /**
   * Removes settings of a saved profile; a profile never saved stays unsaved (nothing to remove).
   * Returns the keys it held (those removed), in the order asked.
   */
  deleteProfileSettings(profileName: string, keys: SettingKey[]): SettingKey[] {
    let removed: SettingKey[] = [];
    this.updateConfig((c) => {
      const profiles = profilesOf(c, this.file);
      const p = profiles[profileName];
      if (p === undefined) return c;
      const rest = { ...p };
      removed = keys.filter((k) => rest[k] !== undefined);
      for (const k of keys) delete rest[k];
      return { ...c, profiles: { ...profiles, [profileName]: rest } };
    });
    return removed;
  }

  // --- token cache ---

  cachedTokens(profileName: string): Record<string, CachedToken> {
    return tokensOf(this.tokens.read(), profileName);
  }

  /**
   * Caches a token. With `now` (epoch ms), tokens of the profile that expired before it and hold no
   * refresh token still usable are dropped on the way: each CI run against a sandbox on a new port
   * adds tokens no one will use again, and the cache, read and rewritten whole under its lock by
   * every process that caches one, would grow without end.
   */
  putToken(profileName: string, key: string, token: CachedToken, now?: number): void {
    this.tokens.update((all) => {
      const mine = tokensOf(all, profileName);
      if (now !== undefined) for (const [k, t] of Object.entries(mine)) if (!usable(t, now)) delete mine[k];
      return { ...all, [profileName]: { ...mine, [key]: token } };
    });
  }

  dropToken(profileName: string, key: string): void {
    this.tokens.update((all) => {
      if (!all?.[profileName]?.[key]) return undefined;
      const mine = { ...all[profileName] };
      delete mine[key];
      return { ...all, [profileName]: mine };
    });
  }

  /**
   * Changes or drops (fn answers undefined) every cached token of a base URL, in every profile: the
   * sandbox's clock moved or its data was reset under them. How many were changed or dropped.
   */
  updateTokensOf(baseUrl: string, fn: (t: CachedToken) => CachedToken | undefined): number {
    let n = 0;
    this.tokens.update((all) => {
      if (!all) return undefined;
      const out: TokenShape = {};
      for (const [profile, mine] of Object.entries(all)) {
        if (!mine || typeof mine !== 'object' || Array.isArray(mine)) {
          out[profile] = mine;
          continue;
        }
        const kept: Record<string, CachedToken> = {};
        for (const [key, t] of Object.entries(mine)) {
          if (t?.baseUrl !== baseUrl) {
            kept[key] = t;
            continue;
          }
          n++;
          const changed = fn(t);
          if (changed) kept[key] = changed;
        }
        out[profile] = kept;
      }
      return n > 0 ? out : undefined;
    });
    return n;
  }

  clearTokens(profileName: string): number {
    let n = 0;
    this.tokens.update((all) => {
      if (!all?.[profileName]) return undefined;
      n = Object.keys(all[profileName]).length;
      const rest = { ...all };
      delete rest[profileName];
      return rest;
    });
    return n;
  }
}

/** A cached token that still gives access: its access token, or a refresh token not known to have expired. */
function usable(t: CachedToken, now: number): boolean {
  if (t.expiresAt > now) return true;
  return (
    typeof t.refreshToken === 'string' &&
    t.refreshToken !== '' &&
    !(typeof t.refreshExpiresAt === 'number' && t.refreshExpiresAt <= now)
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A profile's cached tokens: the entries that are tokens (an access token and its expiry). A cache
 * edited by hand into another shape is not spread into character keys or shown as a bad date.
 */
function tokensOf(all: TokenShape | undefined, profileName: string): Record<string, CachedToken> {
  const mine: unknown = all?.[profileName];
  if (!isRecord(mine)) return {};
  const out: Record<string, CachedToken> = {};
  for (const [k, t] of Object.entries(mine))
    if (isRecord(t) && typeof t.accessToken === 'string' && typeof t.expiresAt === 'number')
      out[k] = t as unknown as CachedToken;
  return out;
}

/**
 * The profiles of a config file. A value written by hand as a number or a boolean (`"timeout": 30`,
 * `"protected": true`) is taken as its text; anything else that is not a string is exit 2 naming it.
 */
function profilesOf(c: ConfigShape, file: string): Record<string, Profile> {
  const invalid = (what: string) =>
    new UsageError(`the config file ${file} is not valid: ${what}`, {
      hint: 'fix or remove the file; bankctl never overwrites it',
    });
  const profiles: unknown = c.profiles;
  if (profiles === undefined) return {};
  if (!isRecord(profiles)) throw invalid('"profiles" must be an object');
  const out: Record<string, Profile> = {};
  for (const [name, p] of Object.entries(profiles)) {
    if (!isRecord(p)) throw invalid(`profile "${name}" must be an object`);
    const settings: Record<string, string> = {};
    for (const [k, v] of Object.entries(p)) {
      if (typeof v === 'string') settings[k] = v;
      else if (typeof v === 'number' || typeof v === 'boolean') settings[k] = String(v);
      else if (v !== null) throw invalid(`"${k}" of profile "${name}" must be a string`);
    }
    out[name] = settings as Profile;
  }
  return out;
}
