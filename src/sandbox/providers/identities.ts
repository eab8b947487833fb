// The sandbox's test identities, one set per field pattern, so that every provider it lists can be
// completed (and failed on purpose) by a person typing into the prompt:
// - a free-text username: test-user succeeds; fail... is refused, temp... is a temporary error;
// - a 12-digit personal identity number (the eID banks): 199001011234 succeeds; 190001010001 is
//   cancelled in the app, 190001010002 times out, 190001010003 finds an authentication in progress;
//   any other valid number has no eID in the sandbox.
// The prompt shows this as the field's helpText (catalogue.ts).
import type { ProviderDef } from './catalogue.js';

export const TEST_PERSONAL_NUMBER = '199001011234';
export const FAILING_PERSONAL_NUMBERS: Record<string, 'cancelled' | 'timeout' | 'inprogress'> = {
  '190001010001': 'cancelled',
  '190001010002': 'timeout',
  '190001010003': 'inprogress',
};

export const PERSONAL_NUMBER_HELP = `In the sandbox, ${TEST_PERSONAL_NUMBER} succeeds; 190001010001 is cancelled in the app, 190001010002 times out, 190001010003 is already in progress.`;

/** Field values that complete this provider's flow in the sandbox. */
export function testIdentity(p: ProviderDef): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of p.fields) {
    if (f.name === 'password') out[f.name] = 'test-password';
    else if (f.pattern && new RegExp(`^(?:${f.pattern})$`).test(TEST_PERSONAL_NUMBER))
      out[f.name] = TEST_PERSONAL_NUMBER;
    else out[f.name] = 'test-user';
  }
  return out;
}

/** Messages of an eID that did not complete, in the words of the eID apps. */
export const EID_FAILURES = {
  cancelled: 'The BankID authentication was cancelled in the app.',
  timeout: 'The BankID authentication timed out: it was not confirmed in the app in time.',
  inprogress: 'A BankID authentication is already in progress for this person; try again in a few minutes.',
  unknown: 'There is no BankID for this personal identity number (in the sandbox, 199001011234 succeeds).',
} as const;
