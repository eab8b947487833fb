// `consents v2 create` against a scripted node:http server on loopback (test/helpers/scripted-server.ts):
// the command line the tests of its flags share, and a server closed after each test.
import { afterEach } from 'vitest';
import { scriptedServer, reply, type Step } from './scripted-server.js';

/** `consents v2 create` for a user of a UK bank, with `more` after it. */
export const createArgs = (...more: string[]) => [
  'consents',
  'v2',
  'create',
  '--provider',
  'uk-ob-barclays',
  '--for-user',
  'u1',
  ...more,
];

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
