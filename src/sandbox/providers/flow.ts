// What a provider script sees of the credentials engine (engine.ts): the fields the user gave and
// a few awaitable steps. A script returns once the user is authenticated; the engine then does the
// account opt-in, UPDATING and UPDATED. To fail, a script calls fail(), which never returns.
import type { Failure, ProviderDef } from './catalogue.js';
import { EID_FAILURES, FAILING_PERSONAL_NUMBERS, TEST_PERSONAL_NUMBER } from './identities.js';

/** A supplemental field as the service sends it (spec 2.1). */
export interface SupplementalField {
  name: string;
  description: string;
  hint?: string;
  helpText?: string;
  value?: string;
  masked?: boolean;
  numeric?: boolean;
  optional?: boolean;
  immutable?: boolean;
  sensitive?: boolean;
  checkbox?: boolean;
  exposed?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  patternError?: string;
  /** Serialized JSON. */
  additionalInfo?: string;
}

export interface ThirdPartyPayload {
  android: { packageName: string; requiredMinimumVersion: number; intent: string };
  ios: { appStoreUrl: string; scheme: string; deepLinkUrl: string };
  /** What a person at a computer opens (the real service's payload has it). */
  desktop: { url: string };
  downloadTitle: string;
  downloadMessage: string;
  upgradeTitle: string;
  upgradeMessage: string;
}

export type FinalError = 'AUTHENTICATION_ERROR' | 'TEMPORARY_ERROR';

export interface FlowApi {
  readonly provider: ProviderDef;
  readonly fields: Record<string, string>;
  /** Waits a person spends in an app, ms (--auth-delay). */
  readonly humanDelay: number;
  readonly baseUrl: string;
  /** Sets a status message while staying in the current status (decoupled flows). */
  payload(message: string): void;
  /** A round of AWAITING_SUPPLEMENTAL_INFORMATION; resolves with the answers. */
  ask(fields: SupplementalField[]): Promise<Record<string, string>>;
  /** AWAITING_MOBILE_BANKID_AUTHENTICATION with a fresh autostart token, for humanDelay. */
  eid(): Promise<void>;
  /**
   * AWAITING_THIRD_PARTY_APP_AUTHENTICATION with the payload built from a state; ends after
   * humanDelay or when the callback is relayed / the test bank's page is opened. Resolves false
   * when the callback said the user cancelled.
   */
  thirdParty(build: (state: string) => ThirdPartyPayload): Promise<boolean>;
  wait(ms: number): Promise<void>;
  fail(status: FinalError, message: string, reason?: string): never;
}

export type Script = (f: FlowApi) => Promise<void>;

/** The contract's sandbox table: the username decides the outcome (identities.ts for eID words and personal numbers). */
export function checkUsername(f: FlowApi, opts: { password?: boolean } = {}): void {
  const u = f.fields.username ?? '';
  if (/^\d{12}$/.test(u) || f.provider.flow === 'eid') return checkEid(f, u);
  if (u.startsWith('fail')) f.fail('AUTHENTICATION_ERROR', 'Incorrect username or password.', 'USER_LOGIN_ERROR');
  if (u.startsWith('temp'))
    f.fail('TEMPORARY_ERROR', 'The bank is temporarily unavailable. Please try again later.', 'PROVIDER_ERROR');
  if (u !== 'test-user') f.fail('AUTHENTICATION_ERROR', 'Incorrect username or password.', 'USER_LOGIN_ERROR');
  if (opts.password && f.fields.password !== 'test-password')
    f.fail('AUTHENTICATION_ERROR', 'Incorrect username or password.', 'USER_LOGIN_ERROR');
}

/** Any string of 4 to 8 digits is a good code, except 000000. */
export function checkCode(f: FlowApi, code: string | undefined, what = 'code'): void {
  if (code === '000000') f.fail('AUTHENTICATION_ERROR', `The ${what} was rejected by the bank.`, 'USER_LOGIN_ERROR');
  if (!code || !/^\d{4,8}$/.test(code))
    f.fail('AUTHENTICATION_ERROR', `The ${what} must be 4 to 8 digits.`, 'USER_LOGIN_ERROR');
}

const FAILURE_MESSAGES: Record<Failure, string> = {
  cancelled: 'The authentication was cancelled in the app.',
  inprogress: 'Another authentication is already in progress for this person. Please try again in a few minutes.',
  timeout: 'The authentication timed out: no confirmation arrived from the app in time.',
  always: 'The authentication failed in the app.',
};

/** The always-failing variants end in AUTHENTICATION_ERROR with distinct messages. */
export function failIfFailing(f: FlowApi): void {
  const kind = f.provider.failure;
  if (kind)
    f.fail(
      'AUTHENTICATION_ERROR',
      FAILURE_MESSAGES[kind],
      kind === 'timeout' ? 'AUTHENTICATION_TIMEOUT' : kind === 'cancelled' ? 'USER_CANCELLED' : 'USER_LOGIN_ERROR',
    );
}

/** An eID login: the personal number (or the test username) decides, failures in eID words. */
function checkEid(f: FlowApi, u: string): void {
  const failing = FAILING_PERSONAL_NUMBERS[u];
  if (failing)
    f.fail(
      'AUTHENTICATION_ERROR',
      EID_FAILURES[failing],
      failing === 'timeout'
        ? 'AUTHENTICATION_TIMEOUT'
        : failing === 'cancelled'
          ? 'USER_CANCELLED'
          : 'USER_LOGIN_ERROR',
    );
  if (u.startsWith('fail')) f.fail('AUTHENTICATION_ERROR', EID_FAILURES.cancelled, 'USER_CANCELLED');
  if (u.startsWith('temp'))
    f.fail(
      'TEMPORARY_ERROR',
      'The BankID service is temporarily unavailable. Please try again later.',
      'PROVIDER_ERROR',
    );
  if (u !== 'test-user' && u !== TEST_PERSONAL_NUMBER)
    f.fail('AUTHENTICATION_ERROR', EID_FAILURES.unknown, 'USER_LOGIN_ERROR');
}
