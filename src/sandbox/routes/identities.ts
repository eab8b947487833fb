// GET /api/v1/identities (spec 4.5; shape from the vendor reference's List identity data): one identity per
// set of credentials whose accounts name a holder. The personal number is derived from the ids, so it
// is stable, and it is a valid Swedish personnummer (Luhn check digit) with a matching dateOfBirth.
import { EP } from '../../contract/index.js';
import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import type { MemoryStore } from '../store.js';
import { providerByName } from '../providers/catalogue.js';
import { credentialsOf } from './credentials-view.js';
import { userAccountList } from './read-views.js';

/** The provider a set of credentials belongs to, when the credentials area can say. */
const providerOf = (store: MemoryStore, credentialsId: string) => credentialsOf(store, credentialsId)?.providerName;

export function registerIdentities(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  handle(EP.reads.identities, (req, res) => {
    const user = req.user();
    const byCredentials = new Map<string, string>();
    for (const a of userAccountList(store, user.id)) {
      const c = a.credentialsIds[0];
      if (c && a.holderName && a.accountExclusion !== 'AGGREGATION' && !byCredentials.has(c))
        byCredentials.set(c, a.holderName);
    }
    // the reference's shape (data v1, List identity data): {identities: [{dateOfBirth,
    // financialInstitutionId, name, providerName, ssn}]}
    const identities = [...byCredentials].map(([credentialsId, name]) => {
      const { ssn, dateOfBirth } = personalNumber(user.id, name);
      const providerName = providerOf(store, credentialsId);
      const financialInstitutionId = providerName ? providerByName(providerName)?.financialInstitutionId : undefined;
      return {
        dateOfBirth,
        financialInstitutionId: financialInstitutionId ?? null,
        name,
        providerName: providerName ?? 'unknown',
        ssn,
      };
    });
    res.json(200, { identities });
  });
}

/**
 * The holder's personal number and date of birth, stable for a user and a holder's name: the same
 * wherever the sandbox shows that holder (identities, v2 parties, verification reports).
 */
export function personalNumber(userId: string, holderName: string): { ssn: string; dateOfBirth: string } {
  const h = createHash('sha256').update(`${userId}:${holderName}`).digest();
  const year = 1950 + (h[0]! % 50);
  const month = 1 + (h[1]! % 12);
  const day = 1 + (h[2]! % 28);
  const serial = String(h.readUInt16BE(3) % 1000).padStart(3, '0');
  const p = (n: number) => String(n).padStart(2, '0');
  const body = `${p(year % 100)}${p(month)}${p(day)}${serial}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  const check = (10 - (sum % 10)) % 10;
  return { ssn: `${year}${p(month)}${p(day)}${serial}${check}`, dateOfBirth: `${year}-${p(month)}-${p(day)}` };
}
