// `consents v2 create` against a scripted node:http server on loopback (test/helpers/scripted-server.ts):
// the command line the tests of its flags share, and a server closed after each test.
import { afterEach } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { clientToken, raw } from './sandbox.js';
import { scriptedServer, reply, type Step } from './scripted-server.js';

/** `consents v2 create` for this provider and user, with `more` after it. */
export const createArgsFor = (providerId: string, userId: string, ...more: string[]) => [
  'consents',
  'v2',
  'create',
  '--provider',
  providerId,
  '--for-user',
  userId,
  ...more,
];

/** `consents v2 create` for a user of a UK bank, with `more` after it. */
export const createArgs = (...more: string[]) => createArgsFor('uk-ob-barclays', 'u1', ...more);

/** The VRP limits a create needs when no --parameters file is given. */
export const VRP_LIMITS = ['--currency', 'GBP', '--max-amount', '100', '--limit', 'MONTH=500'];

/** The service's 201 with a new consent. */
export const created = reply(201, JSON.stringify({ consent: { id: 'c-1', state: 'INITIALIZED' } }));

/** A server that answers `steps` (by default one 201) and is closed once the test is over. */
export function useScriptedServer(): (steps?: Step[]) => ReturnType<typeof scriptedServer> {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
  return async (steps = [created]) => {
    const s = await scriptedServer(steps);
    close = s.close;
    return s;
  };
}

/** The service's wire: POST /connectivity/v2/consents of a VRP sweeping consent, with `userExtra` in its userParameters, as the app. */
export async function postVrpConsent(
  sandbox: Sandbox,
  o: { userId: string; providerId: string; key: string; userExtra: Record<string, unknown> },
) {
  const ct = await clientToken(sandbox, ['consents']);
  return raw(sandbox.baseUrl, 'POST', '/connectivity/v2/consents', {
    headers: { authorization: `Bearer ${ct}`, 'idempotency-key': o.key },
    json: vrpConsentBody(o),
  });
}

/**
 * A VRP sweeping consent's financialServiceParameters (template 1.0.0): limits of 1.99 and 2.99 GBP a
 * day to the payee account "Savings" (number 1 unless given); userExtra and controlExtra add or replace
 * user parameters and control parameters.
 */
export function vrpParameters(
  o: { payeeNumber?: string; userExtra?: Record<string, unknown>; controlExtra?: Record<string, unknown> } = {},
) {
  return {
    version: '1.0.0',
    userParameters: {
      controlParameters: {
        maximumIndividualAmount: { currency: 'GBP', value: { scale: 2, unscaledValue: 199 } },
        periodicLimits: [
          {
            amount: { currency: 'GBP', value: { scale: 2, unscaledValue: 299 } },
            periodAlignment: 'MANDATE',
            periodType: 'DAY',
          },
        ],
        ...o.controlExtra,
      },
      payeeAccount: { name: 'Savings', number: o.payeeNumber ?? '1', type: 'SORT_CODE' },
      ...o.userExtra,
    },
  };
}

/** The body of a VRP sweeping consent (vrpParameters) for this user and provider. */
export function vrpConsentBody(o: { userId: string; providerId: string; userExtra?: Record<string, unknown> }) {
  return {
    financialService: { subtype: 'VRP_SWEEPING', type: 'MANDATE_PAYMENTS' },
    financialServiceParameters: vrpParameters({ userExtra: o.userExtra }),
    providerId: o.providerId,
    userId: o.userId,
  };
}

/** `consents v2 create` of a VRP consent in GBP (max 1, 5 a month) to payee account 10000031510604, -o json; more flags after. */
export function vrpCreateArgs(providerId: string, userId: string, ...more: string[]): string[] {
  return createArgsFor(
    providerId,
    userId,
    '--currency',
    'GBP',
    '--max-amount',
    '1',
    '--limit',
    'MONTH=5',
    '--payee-number',
    '10000031510604',
    '-o',
    'json',
    ...more,
  );
}
