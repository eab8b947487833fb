// Whether a setting's value can be used: one judge for every place that asks. The commands that use
// a setting refuse a bad one (context.ts), `config set` refuses to save it, `config explain` marks it
// and `doctor` fails on it, all with the same words, whatever the value came from (flag, env,
// profile). `config explain` showed BANKCTL_TIMEOUT=abc as a plain value while doctor failed on it.
import { readFile } from 'node:fs/promises';
import { maskUrlPassword } from './display.js';
import type { SettingKey } from './store.js';
import { sourceName, type Setting, type Settings } from './settings.js';
import { errnoReason } from '../fs/errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

export const MAX_TIMEOUT_S = 86_400;
export const MAX_RETRIES = 100;
const MIN_RESPONSE_LIMIT = 1024;
const MAX_RESPONSE_LIMIT = 512 * 1024 ** 2;

/** "65536", "64MiB", "64M", "1.5GiB": bytes; undefined when it is not a size. */
export function parseSize(v: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(v.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 'b').toLowerCase()[0]!;
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.floor(Number(m[1]) * mult);
}

/** The pins of a --pin value: comma-separated, `sha256/` accepted before each. */
export function normalizePins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((p) => p.trim().replace(/^sha256\//i, ''))
    .filter(Boolean);
}

/** The words a profile's `protected` is read as: these protect it (`config set` stores `true`)... */
export const PROTECTED_ON = /^(true|1|yes|on)$/i;
/** ...and these do not (`config set` stores `false`); anything else is a problem that reads as not protected. */
export const PROTECTED_OFF = /^(false|0|no|off)$/i;

/** Whether a profile's `protected` value protects it. */
export function protects(value: string | undefined): boolean {
  return value !== undefined && PROTECTED_ON.test(value.trim());
}

/**
 * Why `value` of setting `key` cannot be used (one line, not saying where the value came from),
 * else undefined. Checks what can be told from the value itself; the CA file is read by
 * caFileProblem. A secret's value is never part of the answer.
 */
export function settingProblem(key: SettingKey, value: string): string | undefined {
  const raw = value.trim();
  const n = Number(raw);
  switch (key) {
    case 'base-url':
    case 'link-url':
      return isHttpUrl(value) ? undefined : `${key} must be an http(s) URL, got "${maskUrlPassword(value)}"`;
    case 'output':
      return (OUTPUT_FORMATS as readonly string[]).includes(value)
        ? undefined
        : `output must be one of ${OUTPUT_FORMATS.join(', ')}, got "${value}"`;
    case 'timeout':
      return !/^\d+(\.\d+)?$/.test(raw) || !(n > 0) || n > MAX_TIMEOUT_S
        ? `timeout must be a number of seconds from 0.001 to ${MAX_TIMEOUT_S}, got "${value}"`
        : undefined;
    case 'retries':
      return !/^\d+$/.test(raw) || n > MAX_RETRIES
        ? `retries must be a whole number from 0 to ${MAX_RETRIES}, got "${value}"`
        : undefined;
    case 'max-response-size': {
      const size = parseSize(value);
      return size === undefined || size < MIN_RESPONSE_LIMIT || size > MAX_RESPONSE_LIMIT
        ? `max-response-size must be a size from 1KiB to 512MiB (bytes, or with KiB, MiB, GiB), got "${value}"`
        : undefined;
    }
    case 'pin': {
      const bad = normalizePins(value).find((p) => !/^[A-Za-z0-9+/]{43}=$/.test(p));
      return bad !== undefined ? `pin "${bad}" is not a base64 SHA-256 (44 characters, ending in "=")` : undefined;
    }
    case 'basic':
      // USER_ID:TOKEN (api/client.ts): the token is a secret, so the value is not shown
      // (an empty TOKEN, `--basic "$ID:$TOKEN"` with TOKEN unset, was sent and answered 401)
      return basicProblem(value);
    case 'protected':
      // anything else was read as "not protected" without a word
      return PROTECTED_ON.test(raw) || PROTECTED_OFF.test(raw)
        ? undefined
        : `protected must be true or false, got "${value}" (read as not protected)`;
    default:
      return undefined;
  }
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Why the CA file cannot be used (it is read): undefined when it holds a PEM certificate. */
export async function caFileProblem(file: string): Promise<string | undefined> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (err) {
    return `the CA file ${file} cannot be read: ${errnoReason(err)}`;
  }
  return pem.includes('-----BEGIN CERTIFICATE-----') ? undefined : `the CA file ${file} holds no PEM certificate`;
}

/** The problem of a setting in effect, the CA file read, else undefined. */
export async function effectiveProblem(key: SettingKey, s: Setting | undefined): Promise<string | undefined> {
  if (s === undefined) return undefined;
  return settingProblem(key, s.value) ?? (key === 'ca-file' ? await caFileProblem(s.value) : undefined);
}

/** Where a setting in effect came from, as a problem names it: --timeout, BANKCTL_TIMEOUT, profile NAME. */
export function fromWhere(key: SettingKey, s: Setting, profile: string): string {
  return s.source === 'profile' ? `profile ${profile}` : sourceName(key, s.source);
}

/** Each setting in effect that cannot be used, as "<problem> (from <where>)", in the order of `keys`. */
export async function settingProblems(s: Settings, keys: readonly SettingKey[], profile: string): Promise<string[]> {
  const found = await Promise.all(
    keys.map(async (k) => {
      const v = s.get(k);
      const problem = await effectiveProblem(k, v);
      return problem ? `${problem} (from ${fromWhere(k, v!, profile)})` : undefined;
    }),
  );
  return found.filter((p): p is string => p !== undefined);
}

/** What is wrong with a `basic` value (USER_ID:TOKEN, neither empty), or undefined. */
export function basicProblem(value: string): string | undefined {
  const i = value.indexOf(':');
  if (i <= 0) return 'basic must be USER_ID:TOKEN';
  if (i === value.length - 1) return 'basic must be USER_ID:TOKEN: the TOKEN after the colon is empty';
  return undefined;
}
