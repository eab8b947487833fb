// What a partner's own HTTP client sees in the sandbox's response heads: the same as the service
// documents, since anything else turns into a production bug once the client goes live.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let base: string;
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
});
afterAll(() => t.close());

describe('405 names the allowed methods (RFC 9110 15.5.6: a 405 MUST carry Allow)', () => {
  test('the token endpoint takes POST only', async () => {
    const r = await raw(base, 'GET', '/api/v1/oauth/token');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.json().errorCode).toBe('request.method_not_allowed');
  });

  test('a templated path lists every method it is served under, HEAD with GET', async () => {
    // /api/v1/credentials/{id}: GET, DELETE, PUT
    const r = await raw(base, 'POST', '/api/v1/credentials/abc');
    expect(r.status).toBe(405);
    const allow = (r.headers.get('allow') ?? '').split(', ');
    expect(allow).toEqual(expect.arrayContaining(['DELETE', 'GET', 'HEAD', 'PUT']));
    expect(allow).not.toContain('POST');
  });

  test('connector paths too', async () => {
    const r = await raw(base, 'GET', '/connector/users/someone/accounts');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});
