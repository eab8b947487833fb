// What a partner's own HTTP client sees in the sandbox's response heads: the same as the service
// documents, since anything else turns into a production bug once the client goes live.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientToken, raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

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

describe('X-Client-Trace-ID comes back as sent (the vendor reference, "Tracing requests")', () => {
  test('on a success, an error answer and a 404', async () => {
    const headers = { 'x-client-trace-id': 'partner-trace-42' };
    const ct = await clientToken(t.sandbox, ['providers:read']);
    const ok = await raw(base, 'GET', '/api/v1/providers/markets', {
      headers: { ...headers, authorization: `Bearer ${ct}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-client-trace-id')).toBe('partner-trace-42');
    const unauthorized = await raw(base, 'GET', '/api/v1/providers/markets', { headers });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-client-trace-id')).toBe('partner-trace-42');
    const tokenError = await raw(base, 'POST', '/api/v1/oauth/token', {
      headers,
      form: { grant_type: 'client_credentials', client_id: 'nope', client_secret: 'x' },
    });
    expect(tokenError.status).toBe(401);
    expect(tokenError.headers.get('x-client-trace-id')).toBe('partner-trace-42');
    const missing = await raw(base, 'GET', '/api/v1/no-such-thing', { headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-client-trace-id')).toBe('partner-trace-42');
    // without one, none is made up
    const none = await raw(base, 'GET', '/api/v1/no-such-thing');
    expect(none.headers.get('x-client-trace-id')).toBeNull();
  });
});

describe('a compressed request body is a 415 naming the coding (RFC 9110 15.5.16)', () => {
  test('gzip on a JSON body and on the token form: 415 with Accept-Encoding, not "not valid UTF-8"', async () => {
    const ct = await clientToken(t.sandbox, ['user:create']);
    const json = gzipSync(JSON.stringify({ market: 'SE', locale: 'sv_SE' }));
    const r = await raw(base, 'POST', '/api/v1/user/create', {
      headers: { authorization: `Bearer ${ct}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: json,
    });
    expect(r.status).toBe(415);
    expect(r.json().errorCode).toBe('request.unsupported_content_encoding');
    expect(r.json().errorMessage).toContain('gzip');
    expect(r.headers.get('accept-encoding')).toBe('identity');
    const form = await raw(base, 'POST', '/api/v1/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: gzipSync(
        new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: t.sandbox.clientId,
          client_secret: t.sandbox.clientSecret,
        }).toString(),
      ),
    });
    expect(form.status).toBe(415);
  });

  test('identity is no coding: the body is read', async () => {
    const ct = await clientToken(t.sandbox, ['user:create']);
    const r = await raw(base, 'POST', '/api/v1/user/create', {
      headers: { authorization: `Bearer ${ct}`, 'content-encoding': 'identity' },
      json: { market: 'SE', locale: 'sv_SE' },
    });
    expect(r.status).toBe(200);
  });
});

describe('the token endpoint: never cached, and a 401 says how to authenticate (RFC 6749 5.1, 5.2, 2.3.1)', () => {
  const token = '/api/v1/oauth/token';
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
  });

  test('a token answer has Cache-Control: no-store and Pragma: no-cache; so do its errors', async () => {
    const ok = await raw(base, 'POST', token, {
      form: { grant_type: 'client_credentials', client_id: t.sandbox.clientId, client_secret: t.sandbox.clientSecret },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.headers.get('pragma')).toBe('no-cache');
    const bad = await raw(base, 'POST', token, {
      form: { grant_type: 'authorization_code', client_id: t.sandbox.clientId, client_secret: t.sandbox.clientSecret },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('cache-control')).toBe('no-store');
  });

  test('401 for a wrong secret in the form carries a WWW-Authenticate challenge', async () => {
    const r = await raw(base, 'POST', token, {
      form: { grant_type: 'client_credentials', client_id: t.sandbox.clientId, client_secret: 'wrong' },
    });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.json().errorMessage).toBe('invalid client secret');
  });

  test('HTTP Basic client authentication: accepted; a wrong one is 401 with the Basic challenge', async () => {
    const ok = await raw(base, 'POST', token, {
      headers: basic(t.sandbox.clientId, t.sandbox.clientSecret),
      form: { grant_type: 'client_credentials', scope: 'user:create' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ token_type: 'bearer', scope: 'user:create' });
    const wrong = await raw(base, 'POST', token, {
      headers: basic(t.sandbox.clientId, 'wrong'),
      form: { grant_type: 'client_credentials' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    // two methods at once is a 400 (RFC 6749 2.3: one method per request)
    const twice = await raw(base, 'POST', token, {
      headers: basic(t.sandbox.clientId, t.sandbox.clientSecret),
      form: { grant_type: 'client_credentials', client_secret: t.sandbox.clientSecret },
    });
    expect(twice.status).toBe(400);
    expect(twice.json().errorMessage).toContain('one of them');
  });
});

describe('401s of the API carry a challenge; a missing scope names it (RFC 9110 11.6.1, RFC 6750 3)', () => {
  test('no token: Bearer realm, no error code', async () => {
    const r = await raw(base, 'GET', '/data/v2/accounts');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('a token that is not valid: error="invalid_token"', async () => {
    const r = await raw(base, 'GET', '/data/v2/accounts', { headers: { authorization: 'Bearer nope' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="api", error="invalid_token", error_description="/,
    );
    expect(r.json().errorCode).toBe('authentication.invalid_token');
  });

  test('connector endpoints name the Token scheme too', async () => {
    const r = await raw(base, 'DELETE', '/connector/users/u1', { headers: { authorization: 'Token nope' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(
      /^Token realm="connector", error="invalid_token".*, Bearer realm="api"$/,
    );
  });

  test('a token without the scope: 403 with error="insufficient_scope" and the scope', async () => {
    const ct = await clientToken(t.sandbox, ['user:create']);
    const r = await raw(base, 'POST', '/api/v1/oauth/revoke-all', {
      headers: { authorization: `Bearer ${ct}` },
      form: { user_id: 'x' },
    });
    expect(r.status).toBe(403);
    expect(r.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="authorization:revoke"',
    );
  });
});
