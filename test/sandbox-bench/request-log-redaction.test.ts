// The sandbox's request log with bodies (`sandbox start --bodies`): a secret a client sends is not
// kept even when the client names its body's type wrongly (a form sent as text/plain) or calls a
// PIN `pinCode`, or sends a JWT client assertion.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
beforeAll(async () => {
  t = await startTestSandbox({ bodies: true });
});
afterAll(() => t.close());

async function logged(): Promise<string> {
  const r = await raw(t.sandbox.baseUrl, 'GET', '/sandbox/logs', {
    headers: { authorization: `Token ${t.sandbox.connectorToken}` },
  });
  expect(r.status, r.text).toBe(200);
  return r.text;
}

describe('sandbox logs --bodies keeps no secret', () => {
  test('a token request sent as text/plain: the client secret is not in the log', async () => {
    // a short client id: text/plain with a 32-character run (the sandbox's client id) was never kept
    const body = 'client_id=cid&client_secret=short-s3cret&grant_type=client_credentials';
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', { body, headers: { 'content-type': 'text/plain' } });
    const log = await logged();
    expect(log).toContain('/api/v1/oauth/token');
    expect(log).toContain('client_secret=%5Bredacted%5D');
    expect(log).not.toContain('short-s3cret');
  });

  test('a password alone as text/plain is not kept; plain text without one is', async () => {
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      body: 'password=hunter2x',
      headers: { 'content-type': 'text/plain' },
    });
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      body: 'just a note',
      headers: { 'content-type': 'text/plain' },
    });
    const log = await logged();
    expect(log).not.toContain('hunter2x');
    expect(log).toContain('just a note');
  });

  test('pinCode, pin_code, client_assertion and private_key in JSON are replaced', async () => {
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      json: {
        pinCode: '4711-pin',
        extra: { pin_code: '8822-pin' },
        client_assertion: 'eyJ.jwt.sig',
        private_key: 'pk-x',
      },
    });
    const log = await logged();
    for (const s of ['4711-pin', '8822-pin', 'eyJ.jwt.sig', 'pk-x']) expect(log).not.toContain(s);
    expect(log).toContain('pinCode');
  });

  test('plural, held and ordinary names: tokens and tokenValue are replaced, tokenType and currencyCode kept', async () => {
    await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      json: {
        tokens: ['tok-a-1', 'tok-b-2'],
        passwords: 'pw-list-3',
        tokenValue: 'tv-secret-4',
        authorizationHeader: 'Bearer ah-secret-5',
        tokenType: 'bearer',
        currencyCode: 'SEK',
      },
    });
    const log = await logged();
    for (const s of ['tok-a-1', 'tok-b-2', 'pw-list-3', 'tv-secret-4', 'ah-secret-5']) expect(log).not.toContain(s);
    expect(log).toContain('bearer');
    expect(log).toContain('SEK');
  });
});
