// Every provider the sandbox lists can be completed with its documented test identity (answering
// each supplemental round), and fails on purpose with the failing one, in eID words for eID banks.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ALL_SCOPES } from '../../src/contract/index.js';
import { PROVIDERS } from '../../src/sandbox/providers/catalogue.js';
import { testIdentity } from '../../src/sandbox/providers/identities.js';
import { raw, startTestSandbox, userWithToken, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await startTestSandbox({ authDelayMs: 5 });
  auth = { authorization: `Bearer ${(await userWithToken(t.sandbox, ALL_SCOPES)).token}` };
});
afterAll(() => t.close());

/** Connects (as a new user unless `as` is given) and answers every round; the final credentials. */
async function connect(providerName: string, fields: Record<string, string>, as?: Record<string, string>) {
  // a user each: a refresh's events compare the user's data before and after
  const auth = as ?? { authorization: `Bearer ${(await userWithToken(t.sandbox, ALL_SCOPES)).token}` };
  const c = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/credentials', {
    headers: auth,
    json: { providerName, fields },
  });
  if (c.status !== 200) return { status: `HTTP ${c.status}`, statusPayload: c.text };
  const id = c.json().id as string;
  let answered = 0;
  for (let i = 0; i < 400; i++) {
    const cur = (await raw(t.sandbox.baseUrl, 'GET', `/api/v1/credentials/${id}`, { headers: auth })).json();
    if (['UPDATED', 'AUTHENTICATION_ERROR', 'TEMPORARY_ERROR', 'PERMANENT_ERROR'].includes(cur.status)) return cur;
    if (cur.status === 'AWAITING_SUPPLEMENTAL_INFORMATION' && cur.statusUpdated > answered) {
      answered = cur.statusUpdated;
      const round = JSON.parse(cur.supplementalInformation) as Array<{
        name: string;
        checkbox?: boolean;
        immutable?: boolean;
      }>;
      const information = Object.fromEntries(
        round.filter((f) => !f.immutable).map((f) => [f.name, f.checkbox ? 'true' : '1234']),
      );
      await raw(t.sandbox.baseUrl, 'POST', `/api/v1/credentials/${id}/supplemental-information`, {
        headers: auth,
        json: { information },
      });
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { status: 'STUCK' };
}

test('every provider that is not a failing variant completes with its test identity', async () => {
  const all = PROVIDERS.filter((p) => !p.failure);
  const failures: string[] = [];
  for (let i = 0; i < all.length; i += 12) {
    await Promise.all(
      all.slice(i, i + 12).map(async (p) => {
        const r = await connect(p.name, testIdentity(p));
        if (r.status !== 'UPDATED') failures.push(`${p.name}: ${r.status} ${r.statusPayload ?? ''}`);
      }),
    );
  }
  expect(failures).toEqual([]);
}, 120_000);

test('an eID bank: the personal-number prompt hint names the test identities; failures in eID words', async () => {
  const p = (
    await raw(t.sandbox.baseUrl, 'GET', '/api/v1/providers/se-handelsbanken-bankid', { headers: auth })
  ).json();
  const field = (p.providers?.[0] ?? p).fields[0];
  expect(field.helpText).toContain('199001011234 succeeds');
  const cases: Array<[string, RegExp]> = [
    ['190001010001', /cancelled/],
    ['190001010002', /timed out/],
    ['190001010003', /in progress/],
    ['198001011234', /no BankID for this personal identity number/],
  ];
  for (const [number, words] of cases) {
    const r = await connect('se-swedbank-bankid', { username: number }, auth);
    expect(r.status, number).toBe('AUTHENTICATION_ERROR');
    expect(r.statusPayload, number).toMatch(words);
    expect(r.statusPayload).not.toMatch(/username or password/);
  }
}, 60_000);
