// The events `POST /sandbox/trigger` (and `bankctl sandbox trigger --status`) takes a status for,
// with the statuses each takes: the one list the sandbox checks against and the messages and the
// CLI's help name, so that none of them leaves an event out.

import { CREDENTIALS_ERROR_STATUSES, CREDENTIALS_STATUSES } from './vocabulary.js';

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

export const TRIGGER_STATUSES: Readonly<Record<string, readonly string[]>> = {
  'credentials:create': CREDENTIALS_STATUSES,
  'credentials:update': CREDENTIALS_STATUSES,
  'signable-operation:update': OPERATION_STATUSES,
  // events v2 refresh:finished: UPDATED, or an error status (which adds its detailedError)
  'refresh:finished': ['UPDATED', ...CREDENTIALS_ERROR_STATUSES],
};

/** "a, b, c and d": the events that take a status. */
export const STATUS_EVENTS_TEXT = ((names: string[]) => `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`)(
  Object.keys(TRIGGER_STATUSES),
);
