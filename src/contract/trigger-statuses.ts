// The events `POST /sandbox/trigger` (and `bankctl sandbox trigger --status`) takes a status for,
// with the statuses each takes: the one list the sandbox checks against and the messages and the
// CLI's help name, so that none of them leaves an event out.

/** A credentials' statuses (credentials:create and credentials:update). */
const CREDENTIALS_STATUSES = [
  'CREATED',
  'AUTHENTICATING',
  'AWAITING_MOBILE_BANKID_AUTHENTICATION',
  'AWAITING_MOBILE_EID_AUTHENTICATION',
  'AWAITING_SUPPLEMENTAL_INFORMATION',
  'AWAITING_THIRD_PARTY_APP_AUTHENTICATION',
  'UPDATING',
  'UPDATED',
  'AUTHENTICATION_ERROR',
  'TEMPORARY_ERROR',
  'PERMANENT_ERROR',
  'SESSION_EXPIRED',
  'DELETED',
] as const;

/** A signable operation's statuses. */
const OPERATION_STATUSES = [
  'CREATED',
  'AWAITING_CREDENTIALS',
  'AWAITING_THIRD_PARTY_APP_AUTHENTICATION',
  'EXECUTING',
  'EXECUTED',
  'FAILED',
  'CANCELLED',
] as const;

/** Events v2 refresh:finished: UPDATED, or an error status (which adds its detailedError). */
export const REFRESH_ERROR_STATUSES = [
  'AUTHENTICATION_ERROR',
  'TEMPORARY_ERROR',
  'SESSION_EXPIRED',
  'PERMANENT_ERROR',
] as const;
export type RefreshErrorStatus = (typeof REFRESH_ERROR_STATUSES)[number];

export const TRIGGER_STATUSES: Readonly<Record<string, readonly string[]>> = {
  'credentials:create': CREDENTIALS_STATUSES,
  'credentials:update': CREDENTIALS_STATUSES,
  'signable-operation:update': OPERATION_STATUSES,
  'refresh:finished': ['UPDATED', ...REFRESH_ERROR_STATUSES],
};

/** "a, b, c and d": the events that take a status. */
export const STATUS_EVENTS_TEXT = ((names: string[]) => `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`)(
  Object.keys(TRIGGER_STATUSES),
);
