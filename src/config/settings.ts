// Effective settings: flag > environment > profile > sandbox state > default, with the source of each.
import type { Profile, SettingKey } from './store.js';
import { SANDBOX_DEFAULT_URL } from './store.js';

export type Source = 'flag' | 'env' | 'profile' | 'sandbox' | 'default';

export interface Setting {
  value: string;
  source: Source;
}

/** A setting's source as messages name it: the flag (--timeout), the variable (BANKCTL_TIMEOUT), else the source. */
export function sourceName(key: SettingKey, source: Source): string {
  return source === 'env' ? (ENV_FOR[key] ?? 'env') : source === 'flag' ? `--${key}` : source;
}

export const ENV_FOR: Partial<Record<SettingKey | 'profile', string>> = {
  profile: 'BANKCTL_PROFILE',
  'base-url': 'BANKCTL_BASE_URL',
  'link-url': 'BANKCTL_LINK_URL',
  output: 'BANKCTL_OUTPUT',
  timeout: 'BANKCTL_TIMEOUT',
  retries: 'BANKCTL_RETRIES',
  'max-response-size': 'BANKCTL_MAX_RESPONSE_SIZE',
  'client-id': 'BANKCTL_CLIENT_ID',
  'client-secret': 'BANKCTL_CLIENT_SECRET',
  token: 'BANKCTL_TOKEN',
  'connector-token': 'BANKCTL_CONNECTOR_TOKEN',
  user: 'BANKCTL_USER',
  basic: 'BANKCTL_BASIC',
  'ca-file': 'BANKCTL_CA_FILE',
  pin: 'BANKCTL_PIN',
};

const DEFAULTS: Partial<Record<SettingKey, string>> = {
  'base-url': SANDBOX_DEFAULT_URL,
  timeout: '30',
  retries: '3',
  'max-response-size': '64MiB',
};

/** What a running local sandbox published about itself (see sandbox/state.ts). */
export interface SandboxState {
  baseUrl: string;
  linkUrl: string;
  clientId: string;
  clientSecret: string;
  connectorToken: string;
  pid?: number;
  /** When that process started (/proc, in sandbox.json only): its pid given to another process since is known as such. */
  pidStart?: string;
  caFile?: string;
  pin?: string;
  /** Its --data file (in sandbox.json only): `sandbox stop` waits while the last snapshot is written. */
  dataFile?: string;
}

const SANDBOX_KEYS: Partial<Record<SettingKey, keyof SandboxState>> = {
  'client-id': 'clientId',
  'client-secret': 'clientSecret',
  'connector-token': 'connectorToken',
  'link-url': 'linkUrl',
  // a sandbox started with --tls: its own CA, so the profile it serves trusts it (against it only)
  'ca-file': 'caFile',
};

export class Settings {
  constructor(
    private readonly flags: Partial<Record<SettingKey, string>>,
    private readonly env: Record<string, string | undefined>,
    private readonly profile: Profile,
    private readonly sandbox: SandboxState | undefined,
  ) {}

  get(key: SettingKey): Setting | undefined {
    const flag = this.flags[key];
    if (flag !== undefined && flag !== '') return { value: flag, source: 'flag' };
    const envName = ENV_FOR[key];
    const envValue = envName ? this.env[envName] : undefined;
    if (envValue !== undefined && envValue !== '') return { value: envValue, source: 'env' };
    const prof = this.profile[key];
    if (prof !== undefined && prof !== '') return { value: prof, source: 'profile' };
    // with no base URL configured, a running local sandbox is the service, on whatever port it took
    if (key === 'base-url' && this.sandbox?.baseUrl) return { value: this.sandbox.baseUrl, source: 'sandbox' };
    const sandboxKey = SANDBOX_KEYS[key];
    if (sandboxKey && this.sandbox && sameOrigin(this.sandbox.baseUrl, this.value('base-url'))) {
      // The running local sandbox's own client works without `auth login`, but only against it.
      if (key !== 'client-secret' || !this.hasExplicit('client-id')) {
        const v = this.sandbox[sandboxKey];
        if (typeof v === 'string' && v) return { value: v, source: 'sandbox' };
      }
    }
    if (key === 'link-url') return { value: `${this.value('base-url')}/link`, source: 'default' };
    const def = DEFAULTS[key];
    return def !== undefined ? { value: def, source: 'default' } : undefined;
  }

  value(key: SettingKey): string | undefined {
    return this.get(key)?.value;
  }

  private hasExplicit(key: SettingKey): boolean {
    const s = this.get(key);
    return s !== undefined && s.source !== 'sandbox' && s.source !== 'default';
  }
}

function sameOrigin(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
