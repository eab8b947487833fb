import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientToken, raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';

let t: TestEnv;
let base: string;
beforeAll(async () => {
  t = await startTestSandbox();
  base = t.sandbox.baseUrl;
});
afterAll(() => t.close());

const tokenForm = (extra: Record<string, string>) => ({
  client_id: t.sandbox.clientId,
  client_secret: t.sandbox.clientSecret,
  ...extra,
});
const bearer = (tok: string) => ({ authorization: `Bearer ${tok}` });

async function createUser(body: Record<string, unknown> = { market: 'SE', locale: 'sv_SE' }) {
  const ct = await clientToken(t.sandbox, ['user:create']);
  return raw(base, 'POST', '/api/v1/user/create', { headers: bearer(ct), json: body });
}

describe('token endpoint (spec 5)', () => {
  test('client_credentials: comma-separated scope, bearer, 1800 s, no refresh token', async () => {
    const r = await raw(base, 'POST', '/api/v1/oauth/token', {
      form: tokenForm({ grant_type: 'client_credentials', scope: 'user:create,authorization:grant' }),
    });
    expect(r.status).toBe(200);
    const j = r.json();
    expect(j).toMatchObject({ token_type: 'bearer', expires_in: 1800, scope: 'user:create,authorization:grant' });
    expect(typeof j.access_token).toBe('string');
    expect(j.refresh_token).toBeUndefined();
  });

  test('401 for an unknown client or a wrong secret, with a descriptive message', async () => {
    const unknown = await raw(base, 'POST', '/api/v1/oauth/token', {
      form: { client_id: 'nope', client_secret: 'x', grant_type: 'client_credentials', scope: 'user:create' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.json().errorMessage).toBe('OAuth client not found');
    const wrong = await raw(base, 'POST', '/api/v1/oauth/token', {
      form: tokenForm({ client_secret: 'wrong', grant_type: 'client_credentials', scope: 'user:create' }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json().errorMessage).toBe('invalid client secret');
  });

  test('client_credentials without scope: a token of the client scope (the reference), which works', async () => {
    const r = await raw(base, 'POST', '/api/v1/oauth/token', { form: tokenForm({ grant_type: 'client_credentials' }) });
    expect(r.status).toBe(200);
    const j = r.json();
    const scopes = String(j.scope).split(',');
    expect(scopes).toEqual(expect.arrayContaining(['user:create', 'authorization:grant']));
    const created = await raw(base, 'POST', '/api/v1/user/create', {
      headers: bearer(j.access_token),
      json: { market: 'SE', locale: 'sv_SE' },
    });
    expect(created.status).toBe(200);
  });

  test('400 for a bad code, an unknown scope or grant type', async () => {
    for (const form of [
      tokenForm({ grant_type: 'authorization_code', code: 'not-a-code' }),
      tokenForm({ grant_type: 'client_credentials', scope: 'user:create,no:such' }),
      tokenForm({ grant_type: 'password' }),
      tokenForm({ grant_type: 'refresh_token', refresh_token: 'nope' }),
    ]) {
      const r = await raw(base, 'POST', '/api/v1/oauth/token', { form });
      expect(r.status, JSON.stringify(form)).toBe(400);
      expect(r.json().errorMessage).toBeTruthy();
    }
  });

  test('a JSON body on the form endpoint is refused with 415, not a crash', async () => {
    const r = await raw(base, 'POST', '/api/v1/oauth/token', {
      json: tokenForm({ grant_type: 'client_credentials', scope: 'user:create' }),
    });
    expect(r.status).toBe(415);
  });

  test('grant + exchange: a user token of 7200 s with exactly the granted scope; the code is single-use', async () => {
    const userId = (await createUser()).json().user_id;
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const g = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { user_id: userId, scope: 'user:delete,accounts:read' },
    });
    expect(g.status).toBe(200);
    const code = g.json().code;
    const ex = await raw(base, 'POST', '/api/v1/oauth/token', {
      form: tokenForm({ grant_type: 'authorization_code', code }),
    });
    expect(ex.status).toBe(200);
    expect(ex.json()).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'user:delete,accounts:read' });
    const again = await raw(base, 'POST', '/api/v1/oauth/token', {
      form: tokenForm({ grant_type: 'authorization_code', code }),
    });
    expect(again.status).toBe(400);
  });

  test('tokens expire with the clock: 401 after 1800 s for a client token', async () => {
    const ct = await clientToken(t.sandbox, ['user:create']);
    expect((await createUser()).status).toBe(200);
    t.sandbox.clock.advance(1801 * 1000);
    const r = await raw(base, 'POST', '/api/v1/user/create', { headers: bearer(ct), json: { market: 'SE' } });
    expect(r.status).toBe(401);
    expect(r.json().errorMessage).toMatch(/expired/);
  });
});

describe('authorization-grant and delegate (spec 4.6)', () => {
  test('validation: user_id xor external_user_id, scope required', async () => {
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const userId = (await createUser()).json().user_id;
    const both = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { user_id: userId, external_user_id: 'x', scope: 'accounts:read' },
    });
    expect(both.status).toBe(400);
    expect(both.json()).toEqual({
      errorMessage: 'user_id and external_user_id cannot both be given',
      errorCode: 'request.invalid',
    });
    const neither = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { scope: 'accounts:read' },
    });
    expect(neither.status).toBe(400);
    const noScope = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { user_id: userId },
    });
    expect(noScope.status).toBe(400);
    const missing = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { user_id: 'nobody', scope: 'accounts:read' },
    });
    expect(missing.status).toBe(404);
  });

  test('by external_user_id, and 409 for a duplicate external id at user creation', async () => {
    expect((await createUser({ market: 'GB', locale: 'en_US', external_user_id: 'alice' })).json()).toMatchObject({
      external_user_id: 'alice',
    });
    expect((await createUser({ market: 'GB', external_user_id: 'alice' })).status).toBe(409);
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const g = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { external_user_id: 'alice', scope: 'accounts:read' },
    });
    expect(g.status).toBe(200);
  });

  test('delegate: id_hint required and ISO-8859-1, actor_client_id required; the code belongs to the actor', async () => {
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const userId = (await createUser()).json().user_id;
    const post = (form: Record<string, string>) =>
      raw(base, 'POST', '/api/v1/oauth/authorization-grant/delegate', {
        headers: bearer(ct),
        form: { user_id: userId, scope: 'credentials:read', ...form },
      });
    expect((await post({ actor_client_id: 'df05e4b379934cd09963197cc855bfe9' })).status).toBe(400);
    const nonLatin = await post({ id_hint: 'Łukasz 😀', actor_client_id: 'df05e4b379934cd09963197cc855bfe9' });
    expect(nonLatin.status).toBe(400);
    expect(nonLatin.json().errorDetails).toEqual({ field: 'id_hint' });
    expect((await post({ id_hint: 'Åsa Öberg' })).status).toBe(400);
    const ok = await post({ id_hint: 'Åsa Öberg', actor_client_id: 'df05e4b379934cd09963197cc855bfe9' });
    expect(ok.status).toBe(200);
    // only the actor client may exchange it
    const ex = await raw(base, 'POST', '/api/v1/oauth/token', {
      form: tokenForm({ grant_type: 'authorization_code', code: ok.json().code }),
    });
    expect(ex.status).toBe(400);
  });

  test("the granted scope need not be on the calling token, but must be the client's", async () => {
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const userId = (await createUser()).json().user_id;
    const r = await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
      headers: bearer(ct),
      form: { user_id: userId, scope: 'transactions:read,no:such-scope' },
    });
    expect(r.status).toBe(400);
  });

  test("revoke-all revokes the user's tokens", async () => {
    const ct = await clientToken(t.sandbox, ['authorization:grant', 'authorization:revoke']);
    const userId = (await createUser()).json().user_id;
    const code = (
      await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
        headers: bearer(ct),
        form: { user_id: userId, scope: 'user:delete' },
      })
    ).json().code;
    const ut = (
      await raw(base, 'POST', '/api/v1/oauth/token', { form: tokenForm({ grant_type: 'authorization_code', code }) })
    ).json().access_token;
    expect(
      (await raw(base, 'POST', '/api/v1/oauth/revoke-all', { headers: bearer(ct), form: { user_id: userId } })).status,
    ).toBe(204);
    expect((await raw(base, 'POST', '/api/v1/user/delete', { headers: bearer(ut) })).status).toBe(401);
  });
});

describe('scopes and token kinds are enforced', () => {
  test('401 without a token, 403 without the scope or with the wrong token kind', async () => {
    expect((await raw(base, 'POST', '/api/v1/user/create', { json: { market: 'SE' } })).status).toBe(401);
    const wrongScope = await clientToken(t.sandbox, ['authorization:grant']);
    const r = await raw(base, 'POST', '/api/v1/user/create', { headers: bearer(wrongScope), json: { market: 'SE' } });
    expect(r.status).toBe(403);
    expect(r.json().errorMessage).toMatch(/user:create/);
    const clientTok = await clientToken(t.sandbox, ['user:delete']);
    expect((await raw(base, 'POST', '/api/v1/user/delete', { headers: bearer(clientTok) })).status).toBe(403);
    expect(
      (await raw(base, 'POST', '/api/v1/user/create', { headers: { authorization: 'Digest abc' }, json: {} })).status,
    ).toBe(401);
  });
});

describe('users (spec 4.6) and version', () => {
  test('market and locale validated against the market list; locale defaults from the market', async () => {
    expect((await createUser({ market: 'XX' })).status).toBe(400);
    expect((await createUser({ market: 'SE', locale: 'xx_YY' })).status).toBe(400);
    expect((await createUser({})).status).toBe(400);
    expect((await createUser({ market: 5 })).status).toBe(400);
    const ok = await createUser({ market: 'DE' });
    expect(ok.status).toBe(200);
    expect(t.sandbox.store.users.get(ok.json().user_id)?.locale).toBe('de_DE');
  });

  test('user/delete removes the user and everything of theirs', async () => {
    const userId = (await createUser()).json().user_id;
    t.sandbox.store.accounts.set('acc-x', { id: 'acc-x', userId } as never);
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const code = (
      await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
        headers: bearer(ct),
        form: { user_id: userId, scope: 'user:delete' },
      })
    ).json().code;
    const ut = (
      await raw(base, 'POST', '/api/v1/oauth/token', { form: tokenForm({ grant_type: 'authorization_code', code }) })
    ).json().access_token;
    expect((await raw(base, 'POST', '/api/v1/user/delete', { headers: bearer(ut) })).status).toBe(204);
    expect(t.sandbox.store.users.has(userId)).toBe(false);
    expect(t.sandbox.store.accounts.has('acc-x')).toBe(false);
  });

  test('GET /version without auth', async () => {
    const r = await raw(base, 'GET', '/version');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json()).sort()).toEqual(['commit', 'date', 'version']);
  });
});

describe('hostile input gets a 4xx with a useful body, never a 500', () => {
  test('malformed JSON, wrong types, wrong content types, invalid UTF-8, huge bodies, unknown paths', async () => {
    const ct = await clientToken(t.sandbox, ['user:create']);
    const cases: Array<[string, Parameters<typeof raw>[3], number]> = [
      [
        '/api/v1/user/create',
        { headers: { ...bearer(ct), 'content-type': 'application/json' }, body: '{"market":' },
        400,
      ],
      ['/api/v1/user/create', { headers: { ...bearer(ct), 'content-type': 'application/json' }, body: '[1,2,3]' }, 400],
      ['/api/v1/user/create', { headers: { ...bearer(ct), 'content-type': 'application/json' }, body: 'null' }, 400],
      [
        '/api/v1/user/create',
        { headers: { ...bearer(ct), 'content-type': 'text/plain' }, body: '{"market":"SE"}' },
        415,
      ],
      [
        '/api/v1/user/create',
        { headers: { ...bearer(ct), 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
        400,
      ],
      [
        '/api/v1/user/create',
        {
          headers: { ...bearer(ct), 'content-type': 'application/json' },
          body: `{"market":"${'A'.repeat(2 * 1024 * 1024)}"}`,
        },
        413,
      ],
      [
        '/api/v1/user/create',
        { headers: { ...bearer(ct), 'content-type': 'application/json' }, body: '{"market":"SE\\u0000\\u001b[31m"}' },
        400,
      ],
      [
        '/api/v1/oauth/token',
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '%%%&&&==' },
        400,
      ],
      ['/no/such/path', {}, 404],
    ];
    for (const [path, opts, status] of cases) {
      const r = await raw(base, 'POST', path, opts);
      expect(r.status, `${path} ${String(opts?.body).slice(0, 40)}`).toBe(status);
      expect(r.text.length).toBeGreaterThan(0);
    }
    expect((await raw(base, 'GET', '/api/v1/user/create')).status).toBe(405);
    expect((await raw(base, 'GET', '/version')).status).toBe(200);
  });
});

describe("revoke-all reaches only the calling app's users (the reference: 401 without access)", () => {
  test("another app's client gets 401 and the user's tokens keep working", async () => {
    t.sandbox.store.clients.set('other-app', {
      id: 'other-app',
      secret: 'other-secret',
      name: 'other',
      scopes: new Set(['authorization:revoke']),
      redirectUris: [],
    });
    const ct = await clientToken(t.sandbox, ['authorization:grant']);
    const userId = (await createUser()).json().user_id;
    const code = (
      await raw(base, 'POST', '/api/v1/oauth/authorization-grant', {
        headers: bearer(ct),
        form: { user_id: userId, scope: 'user:read' },
      })
    ).json().code;
    const ut = (
      await raw(base, 'POST', '/api/v1/oauth/token', { form: tokenForm({ grant_type: 'authorization_code', code }) })
    ).json().access_token;
    const other = (
      await raw(base, 'POST', '/api/v1/oauth/token', {
        form: {
          client_id: 'other-app',
          client_secret: 'other-secret',
          grant_type: 'client_credentials',
          scope: 'authorization:revoke',
        },
      })
    ).json().access_token;
    const r = await raw(base, 'POST', '/api/v1/oauth/revoke-all', {
      headers: bearer(other),
      form: { user_id: userId },
    });
    expect(r.status).toBe(401);
    expect(r.json()).toMatchObject({ errorCode: 'authorization.user_not_accessible' });
    expect((await raw(base, 'GET', '/api/v1/user', { headers: bearer(ut) })).status).toBe(200);
  });
});
