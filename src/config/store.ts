// Profiles and the token cache on conf, under BANKCTL_CONFIG_DIR (default: the platform config
// dir). Files are 0600 and the directory 0700; a corrupt file is an error naming the file and is
// never reset.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../errors.js';

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
  'ca-file',
  'pin',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
export const SECRET_KEYS = new Set<string>([
  'client-secret',
  'token',
  'connector-token',
  'connector-token-next',
  'basic',
]);

export type Profile = Partial<Record<SettingKey, string>>;

type ConfigShape = {
  current?: string;
  profiles?: Record<string, Profile>;
};

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

type ConfCtor = typeof Conf;

export class ConfigStore {
  private conf?: Conf<ConfigShape>;
  private tokenConf?: Conf<Record<string, Record<string, CachedToken>>>;

  constructor(
    readonly dir: string,
    private readonly ConfClass: ConfCtor,
  ) {}

  get file(): string {
    return join(this.dir, 'config.json');
  }

  get tokenFile(): string {
    return join(this.dir, 'tokens.json');
  }

  static async open(dir: string): Promise<ConfigStore> {
    // conf writes through atomically, whose when-exit hooks every exit signal on import and, on
    // Ctrl-C, sends the signal again to the process: commands that handle Ctrl-C themselves would
    // get it twice or be killed. bankctl owns its signals, so those hooks are taken off again (the
    // writes stay atomic: temporary file and rename).
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGBREAK', 'SIGUSR2'] as const;
    const before = new Map(signals.map((sig) => [sig, process.listeners(sig as NodeJS.Signals)]));
    const { default: ConfClass } = await import('conf');
    for (const sig of signals) {
      for (const l of process.listeners(sig as NodeJS.Signals))
        if (!before.get(sig)!.includes(l)) process.off(sig as NodeJS.Signals, l);
    }
    return new ConfigStore(dir, ConfClass);
  }

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  private open<T extends Record<string, unknown>>(name: string): Conf<T> {
    const file = join(this.dir, `${name}.json`);
    checkReadable(file);
    this.ensureDir();
    try {
      const conf = new this.ConfClass<T>({
        cwd: this.dir,
        configName: name,
        projectName: 'bankctl',
        projectSuffix: '',
        configFileMode: 0o600,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
        watch: false,
      });
      // Files written by an older version or by hand may be wider than 0600: tighten them.
      tighten(file);
      return conf;
    } catch (err) {
      throw new UsageError(`the config file ${file} cannot be read: ${(err as Error).message}`, {
        hint: 'fix or remove the file; bankctl never overwrites it',
        cause: err,
      });
    }
  }

  private get store(): Conf<ConfigShape> {
    this.conf ??= this.open<ConfigShape>('config');
    return this.conf;
  }

  private get tokens(): Conf<Record<string, Record<string, CachedToken>>> {
    this.tokenConf ??= this.open('tokens');
    return this.tokenConf;
  }

  /** Profiles exist once anything is stored in them; `default` always exists. */
  profileNames(): string[] {
    const names = Object.keys(this.readProfiles());
    if (!names.includes('default')) names.unshift('default');
    return names;
  }

  currentProfile(): string {
    if (!existsQuiet(this.file)) return 'default';
    return this.store.get('current') ?? 'default';
  }

  useProfile(name: string): void {
    this.store.set('current', name);
    const profiles = this.readProfiles();
    if (!profiles[name]) this.store.set('profiles', { ...profiles, [name]: {} });
  }

  profile(name: string): Profile {
    return this.readProfiles()[name] ?? {};
  }

  private readProfiles(): Record<string, Profile> {
    if (!existsQuiet(this.file)) return {};
    const profiles = this.store.get('profiles');
    if (profiles !== undefined && (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))) {
      throw new UsageError(`the config file ${this.file} is not valid: "profiles" must be an object`, {
        hint: 'fix or remove the file; bankctl never overwrites it',
      });
    }
    return profiles ?? {};
  }

  set(profileName: string, key: SettingKey, value: string): void {
    const profiles = this.readProfiles();
    this.store.set('profiles', { ...profiles, [profileName]: { ...profiles[profileName], [key]: value } });
  }

  unset(profileName: string, key: SettingKey): void {
    const profiles = this.readProfiles();
    const p = { ...profiles[profileName] };
    delete p[key];
    this.store.set('profiles', { ...profiles, [profileName]: p });
  }

  deleteProfileSettings(profileName: string, keys: SettingKey[]): void {
    const profiles = this.readProfiles();
    const p = { ...profiles[profileName] };
    for (const k of keys) delete p[k];
    this.store.set('profiles', { ...profiles, [profileName]: p });
  }

  // --- token cache ---

  cachedTokens(profileName: string): Record<string, CachedToken> {
    if (!existsQuiet(this.tokenFile)) return {};
    return this.tokens.get(profileName) ?? {};
  }

  putToken(profileName: string, key: string, token: CachedToken): void {
    const all = this.cachedTokens(profileName);
    this.tokens.set(profileName, { ...all, [key]: token });
  }

  dropToken(profileName: string, key: string): void {
    if (!existsQuiet(this.tokenFile)) return;
    const all = { ...this.cachedTokens(profileName) };
    delete all[key];
    this.tokens.set(profileName, all);
  }

  clearTokens(profileName: string): number {
    if (!existsQuiet(this.tokenFile)) return 0;
    const n = Object.keys(this.cachedTokens(profileName)).length;
    this.tokens.delete(profileName);
    return n;
  }
}

function existsQuiet(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** A file that exists but cannot be read must not be treated as empty (it would be overwritten). */
function checkReadable(file: string): void {
  try {
    readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new UsageError(`the config file ${file} cannot be read: ${code ?? (err as Error).message}`, {
      hint: 'check its permissions; bankctl never overwrites it',
      cause: err,
    });
  }
}

function tighten(file: string): void {
  try {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) chmodSync(file, 0o600);
  } catch {
    // not created yet
  }
}
