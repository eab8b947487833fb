// Consents end to end: credentials made through the credentials area, then consents list, the
// update-consent page renewing the session (visible in provider-consents), and consents delete.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { reader, type Reader } from './helpers.js';

let t: TestEnv;
let r: Reader;
let credsId: string;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 21 });
  r = await reader(t.sandbox);
  const created = await r.post('/api/v1/credentials', {
    providerName: 'se-test-password',
    fields: { username: 'test-user', password: 'test-password' },
  });
  expect(created.status, created.text).toBe(200);
  credsId = created.json().id;
  for (let i = 0; i < 200; i++) {
    const c = (await r.get(`/api/v1/credentials/${credsId}`)).json();
    if (c.status === 'UPDATED') return;
    if (/ERROR/.test(c.status)) throw new Error(c.status);
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('credentials never reached UPDATED');
});
afterAll(() => t.close());

const cli = (args: string[]) => runCli(args, { env: { ...t.env, BANKCTL_USER: r.userId } });

it('consents list shows the consent; identities name its provider', async () => {
  const list = await cli(['consents', 'list', '-o', 'csv']);
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout.split('\r\n')[0]).toBe('credentialsId,provider,status,sessionExpiry,accounts,error');
  expect(list.stdout).toContain(`${credsId},se-test-password,UPDATED,`);
  const ids = JSON.parse((await cli(['identities', 'list', '-o', 'json'])).stdout);
  expect(ids[0].providerName).toBe('se-test-password');
  // accounts name their bank; the whole account sent back with one change is accepted
  const acc = (await r.get('/api/v1/accounts/list')).json().accounts[0];
  expect(acc.credentialsId).toBe(credsId);
  expect(acc.financialInstitutionId).toMatch(/^\w+$/);
  const put = await r.put(`/api/v1/accounts/${acc.id}`, { ...acc, name: 'Renamed' });
  expect(put.status, put.text).toBe(200);
});

it('the update-consent page renews an expired session: provider-consents shows the new expiry and UPDATED', async () => {
  // let the session run out at the bank
  const rec = (await import('../../src/sandbox/routes/credentials-view.js')).credentialsOf(t.sandbox.store, credsId)!;
  rec.sessionExpiryDate = t.sandbox.clock.now() - 1000;
  rec.status = 'SESSION_EXPIRED';
  const link = await cli(['consents', 'update-link', credsId]);
  expect(link.code, link.stderr).toBe(0);
  const url = new URL(link.stdout.trim());
  const html = await (await fetch(url)).text();
  expect(html).toContain('se-test-password');
  const form = new URLSearchParams(url.searchParams);
  form.set('action', 'extend');
  const post = await fetch(`${t.sandbox.baseUrl}${url.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  expect(post.status).toBe(302);
  const consent = (await r.get('/api/v1/provider-consents'))
    .json()
    .providerConsents.find((c: any) => c.credentialsId === credsId);
  expect(consent.status).toBe('UPDATED');
  expect(consent.sessionExpiryDate - t.sandbox.clock.now()).toBeGreaterThan(89 * 86_400_000);
  // Cancel goes back with USER_CANCELLED and changes nothing
  const again = new URL((await cli(['consents', 'update-link', credsId])).stdout.trim());
  const cancel = new URLSearchParams(again.searchParams);
  cancel.set('action', 'cancel');
  const back = await fetch(`${t.sandbox.baseUrl}${again.pathname}`, {
    method: 'POST',
    body: cancel,
    redirect: 'manual',
  });
  expect(new URL(back.headers.get('location')!).searchParams.get('error')).toBe('USER_CANCELLED');
});

it('consents delete deletes the credentials; the consent is gone and a second delete exits 4', async () => {
  const del = await cli(['consents', 'delete', credsId, '--yes']);
  expect(del.code, del.stderr).toBe(0);
  expect(del.stdout).toBe('');
  const list = JSON.parse((await cli(['consents', 'list', '-o', 'json'])).stdout);
  expect(list.map((c: any) => c.credentialsId)).not.toContain(credsId);
  const again = await cli(['consents', 'delete', credsId, '--yes']);
  expect(again.code).toBe(4);
});
