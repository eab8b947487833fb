// `sandbox trigger` with the Events v2 names: each is emitted with the reference's content shape.
import { describe, expect } from 'vitest';
import type { AccountRecord } from '../../src/sandbox/store.js';
import { cliCases, json, useSandbox } from '../helpers/commands.js';
import { addAccount } from '../helpers/store-fixtures.js';

const sb = useSandbox({ months: 2 });
let oldest: AccountRecord | undefined;

describe('sandbox trigger (Events v2)', () => {
  cliCases('sandbox trigger', () => sb.env, [
    ...[
      'account:created',
      'account:updated',
      'account-transactions:modified',
      'account-booked-transactions:modified',
      'account-transactions:deleted',
    ].map((event) => ({
      name: `${event}: about the user's own account`,
      args: [event, '-o', 'json'],
      code: 0,
      stdout: (out: string) => {
        const r = JSON.parse(out);
        expect(r).toMatchObject({ event, userId: sb.userId, content: { userId: sb.userId } });
        const account = sb.t.sandbox.store.accounts.get(r.content.account.id);
        expect(account?.userId).toBe(sb.userId);
      },
      stderr: /emitted .* queued for 0 webhooks/,
    })),
    {
      name: 'account:updated --credentials-id: about the account of those credentials, not the newest (it was ignored)',
      before: () => void (oldest ??= addAccount(sb.t.sandbox.store, sb.userId, { created: 0 }, 'cred-oldest')),
      args: () => ['account:updated', '--user', sb.userId, '--credentials-id', 'cred-oldest', '-o', 'json'],
      code: 0,
      stdout: (out: string) => expect(JSON.parse(out).content.account.id).toBe(oldest!.id),
    },
    {
      name: 'refresh:finished with an error status carries detailedError',
      args: ['refresh:finished', '--status', 'SESSION_EXPIRED', '-o', 'json'],
      code: 0,
      stdout: json({
        content: {
          status: 'SESSION_EXPIRED',
          credentialsStatus: 'SESSION_EXPIRED',
          source: 'OPERATION_SOURCE_API',
          detailedError: { type: 'USER_LOGIN_ERROR', details: { reason: 'SESSION_EXPIRED', retryable: false } },
        },
      }),
    },
    {
      name: 'refresh:finished UPDATED has no detailedError',
      args: ['refresh:finished', '-o', 'json'],
      code: 0,
      stdout: (out) => expect(JSON.parse(out).content.detailedError).toBeUndefined(),
    },
    {
      name: 'a status of refresh:finished outside its values is exit 2 naming them',
      args: ['refresh:finished', '--status', 'HAPPY'],
      code: 2,
      stderr: /UPDATED, AUTHENTICATION_ERROR, TEMPORARY_ERROR, PERMANENT_ERROR, SESSION_EXPIRED/,
    },
    {
      name: '--status with an account event is exit 2',
      args: ['account:updated', '--status', 'UPDATED'],
      code: 2,
      stderr:
        /status applies to credentials:create, credentials:update, signable-operation:update and refresh:finished only/,
    },
    {
      name: 'an event the sandbox never emits (a payment) is exit 2, with the ones it does',
      args: ['payment:updated'],
      code: 2,
      stderr: /unknown event "payment:updated"[\s\S]*account-transactions:modified/,
    },
    {
      name: 'an unknown event: the hint lists the v2 names too',
      args: ['account:deleted'],
      code: 2,
      stderr: /account-transactions:modified/,
    },
  ]);
});
