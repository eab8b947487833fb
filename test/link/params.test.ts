// The hosted flow's parameters (spec 5): what is validated, what earns an error screen (never a
// redirect to an unvalidated URI), what goes back as BAD_REQUEST, the locales, and hostile input.
import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import {
  authorizeUrl,
  launchBrowser,
  needsChromium,
  startCallback,
  waitForCallback,
  watchErrors,
  type Callback,
} from './helpers.js';

let t: TestEnv;
let browser: Browser;
let cb: Callback;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [t, browser, cb] = await Promise.all([startTestSandbox(), launchBrowser(), startCallback()]);
  // a client with a narrow scope set and an https redirect URI
  t.sandbox.store.clients.set('narrow', {
    id: 'narrow',
    secret: 'narrow-secret',
    name: 'narrow',
    scopes: new Set(['accounts:read']),
    redirectUris: ['https://app.example/cb?x=1'],
  });
});
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await Promise.all([t?.close(), cb?.close()]);
});

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.newContext();
  contexts.push(ctx);
  const page = await ctx.newPage();
  return { page, errors: watchErrors(page) };
}

const get = (url: string) => fetch(url, { redirect: 'manual' });
const users = () => t.sandbox.store.users.size;

needsChromium.describe('client_id and redirect_uri: an error screen, never a redirect', () => {
  const cases: Array<[string, Record<string, string | undefined>]> = [
    ['no client_id', { client_id: undefined, redirect_uri: 'http://localhost:3000/callback' }],
    ['unknown client_id', { client_id: 'nobody', redirect_uri: 'http://localhost:3000/callback' }],
    ['no redirect_uri', {}],
    ['unregistered https URI', { redirect_uri: 'https://evil.example/callback' }],
    ['http for a non-localhost URI', { redirect_uri: 'http://app.example/cb?x=1', client_id: 'narrow' }],
    ['a registered URI with another path', { redirect_uri: 'http://localhost:3000/other' }],
    ['127.0.0.1 when localhost is registered', { redirect_uri: 'http://127.0.0.1:3000/callback' }],
    ['a fragment', { redirect_uri: 'http://localhost:3000/callback#x' }],
    ['user information', { redirect_uri: 'http://user:pw@localhost:3000/callback' }],
    ['a javascript: URI', { redirect_uri: 'javascript:alert(1)//localhost:3000/callback' }],
    ['not a URL', { redirect_uri: '/callback' }],
    ['a trailing slash added', { redirect_uri: 'https://app.example/cb/?x=1', client_id: 'narrow' }],
  ];
  test.each(cases)('%s', async (_name, params) => {
    const before = users();
    const r = await get(authorizeUrl(t.sandbox, params));
    expect(r.status).toBe(400);
    expect(r.headers.get('location')).toBeNull();
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await r.text()).toContain('This link cannot be used');
    expect(users()).toBe(before);
  });

  test('registered URIs: localhost on any port (RFC 8252 loopback), an https URI exactly', async () => {
    for (const redirect_uri of ['http://localhost:3000/callback', 'http://localhost:49152/callback', cb.redirectUri]) {
      expect((await get(authorizeUrl(t.sandbox, { redirect_uri }))).status).toBe(200);
    }
    expect(
      (await get(authorizeUrl(t.sandbox, { client_id: 'narrow', redirect_uri: 'https://app.example/cb?x=1' }))).status,
    ).toBe(200);
  });

  test('whatever is echoed is escaped', async () => {
    const r = await get(
      authorizeUrl(t.sandbox, {
        client_id: '<script>alert(1)</script>',
        redirect_uri: 'http://localhost:3000/callback',
      }),
    );
    const html = await r.text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  test('in the browser: the screen is shown, the browser stays on the link, the application hears nothing', async () => {
    const { page } = await newPage();
    const before = cb.received.length;
    const url = authorizeUrl(t.sandbox, { redirect_uri: `https://evil.example/steal`, state: 's' });
    const resp = await page.goto(url);
    expect(resp!.status()).toBe(400);
    await expect(page.locator('#heading').textContent()).resolves.toBe('This link cannot be used');
    await expect(page.locator('#detail').textContent()).resolves.toBe(
      'redirect_uri "https://evil.example/steal" is not registered for this client.',
    );
    await expect(page.locator('#return').count()).resolves.toBe(0);
    await page.waitForTimeout(200);
    expect(page.url()).toBe(url);
    expect(cb.received.length).toBe(before);
  });
});

needsChromium.describe('a misconfigured link goes back as BAD_REQUEST with the state', () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['no scope', { scope: '' }, /scope is required/],
    ['an unknown scope', { scope: 'accounts:read,bogus:scope' }, /scope "bogus:scope" is unknown/],
    [
      'a scope the client may not have',
      { client_id: 'narrow', redirect_uri: 'https://app.example/cb?x=1', scope: 'accounts:read,transactions:read' },
      /not allowed for this client/,
    ],
    ['an unknown market', { market: 'XX' }, /market "XX" is not a known market/],
    ['an unsupported locale', { locale: 'fr_FR' }, /locale "fr_FR" is not supported/],
    ['a bad iframe value', { iframe: 'yes' }, /iframe must be true or false/],
    ['a bad opt_in value', { opt_in: '1' }, /opt_in must be true or false/],
    ['a username with control characters', { input_username: 'a\u0000b' }, /input_username/],
  ];
  test.each(cases)('%s', async (_name, params, message) => {
    const before = users();
    const r = await get(
      authorizeUrl(t.sandbox, { redirect_uri: 'http://localhost:3000/callback', state: 'keep <me> & "me"', ...params }),
    );
    expect(r.status).toBe(302);
    const loc = new URL(r.headers.get('location')!);
    const base = params.redirect_uri ?? 'http://localhost:3000/callback';
    expect(loc.origin + loc.pathname).toBe(new URL(base).origin + new URL(base).pathname);
    expect(loc.searchParams.get('error')).toBe('BAD_REQUEST');
    expect(loc.searchParams.get('message')).toMatch(message);
    expect(loc.searchParams.get('state')).toBe('keep <me> & "me"');
    expect(loc.searchParams.get('code')).toBeNull();
    if (params.client_id === 'narrow') expect(loc.searchParams.get('x')).toBe('1');
    expect(users()).toBe(before);
  });

  test('repeated parameters are refused rather than guessed', async () => {
    const u = new URL(authorizeUrl(t.sandbox, { redirect_uri: 'http://localhost:3000/callback' }));
    u.searchParams.append('scope', 'transactions:read');
    const r = await get(u.toString());
    expect(r.status).toBe(302);
    expect(new URL(r.headers.get('location')!).searchParams.get('message')).toBe('scope is given 2 times');
    const twice = new URL(authorizeUrl(t.sandbox, { redirect_uri: 'http://localhost:3000/callback' }));
    twice.searchParams.append('redirect_uri', 'https://evil.example/');
    expect((await get(twice.toString())).status).toBe(400);
  });

  test('in iframe mode the BAD_REQUEST goes to the parent as a message', async () => {
    const r = await get(authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, iframe: 'true', scope: 'nope' }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain(`frame-ancestors ${cb.origin}`);
    const html = await r.text();
    expect(html).toContain('"status":"BAD_REQUEST"');
    expect(html).toContain(`"targetOrigin":"${cb.origin}"`);
  });
});

needsChromium.describe('the other parameters', () => {
  test('an unknown input_provider shows an error screen whose way back carries BAD_REQUEST and the state', async () => {
    const { page } = await newPage();
    const before = users();
    const resp = await page.goto(
      authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, state: 'p1', input_provider: 'no-such-bank<b>' }),
    );
    expect(resp!.status()).toBe(404);
    await expect(page.locator('#heading').textContent()).resolves.toBe('Unknown bank');
    await expect(page.locator('#lead').textContent()).resolves.toBe('The bank “no-such-bank<b>” is not available.');
    expect(users()).toBe(before);
    await page.click('#return');
    const q = await waitForCallback(page, cb);
    expect(q.get('error')).toBe('BAD_REQUEST');
    expect(q.get('message')).toBe('unknown provider "no-such-bank<b>"');
    expect(q.get('state')).toBe('p1');
  });

  test('sv_SE: the pages speak Swedish', async () => {
    const { page, errors } = await newPage();
    await page.goto(authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, locale: 'sv_SE' }));
    await expect(page.locator('#heading').textContent()).resolves.toBe('Välj din bank');
    await expect(page.locator('#cancel').textContent()).resolves.toBe('Avbryt');
    await expect(page.locator('#search').getAttribute('placeholder')).resolves.toBe('Sök efter din bank');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('sv');
    await page.fill('#search', 'zzzz-nothing');
    await expect(page.locator('#providers-note').textContent()).resolves.toBe('Ingen bank matchar din sökning.');
    await page.fill('#search', 'se-test-password');
    await page.click('[data-provider="se-test-password"]');
    await expect(page.locator('#heading').textContent()).resolves.toBe('Logga in på Test Password (SE)');
    await expect(page.locator('#submit').textContent()).resolves.toBe('Logga in');
    await page.click('#submit');
    await expect(page.locator('[data-field=username] .error').textContent()).resolves.toBe('Fältet måste fyllas i.');
    const bad = await page.goto(authorizeUrl(t.sandbox, { redirect_uri: 'https://evil.example/', locale: 'sv_SE' }));
    expect(bad!.status()).toBe(400);
    await expect(page.locator('#heading').textContent()).resolves.toBe('Länken kan inte användas');
    expect(errors).toEqual([]);
  });

  test('market limits the provider list; without it the picker starts on SE and can switch', async () => {
    const { page } = await newPage();
    await page.goto(authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, market: 'no' }));
    await page.locator('[data-provider]').first().waitFor();
    const names = await page
      .locator('[data-provider]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-provider')!));
    expect(names).toContain('no-test-password');
    expect(names.filter((n) => !n.startsWith('no-'))).toEqual([]);
    await expect(page.locator('#market').isDisabled()).resolves.toBe(true);
    // test providers are listed first and marked
    await expect(page.locator('[data-provider="no-test-password"] .badge').textContent()).resolves.toBe('Test');

    await page.goto(authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri }));
    await page.locator('[data-provider="se-test-password"]').waitFor();
    await page.selectOption('#market', 'DK');
    await page.locator('[data-provider="dk-test-password"]').waitFor();
    await expect(page.locator('[data-provider="se-test-password"]').count()).resolves.toBe(0);
  });

  test('a hostile input_username is only ever a value', async () => {
    const { page, errors } = await newPage();
    const evil = '"><img id=pwned src=x onerror="document.title=1">';
    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        input_provider: 'se-test-password',
        input_username: evil,
      }),
    );
    await expect(page.locator('input[name=username]').inputValue()).resolves.toBe(evil);
    await expect(page.locator('#pwned').count()).resolves.toBe(0);
    await expect(page.title()).resolves.toBe('Connect your bank');
    expect(errors).toEqual([]);
  });

  test('without the trailing slash the link is redirected to it; HEAD creates nothing', async () => {
    const u = new URL(authorizeUrl(t.sandbox, { redirect_uri: 'http://localhost:3000/callback', state: 'a b' }));
    const r = await get(u.toString().replace('/authorize/?', '/authorize?'));
    expect(r.status).toBe(308);
    expect(new URL(r.headers.get('location')!, t.sandbox.baseUrl).toString()).toBe(u.toString());
    const before = users();
    expect((await fetch(u, { method: 'HEAD' })).status).toBe(200);
    expect(users()).toBe(before);
  });
});

needsChromium.describe('the finishing routes and garbage', () => {
  async function session(): Promise<{ session: string; token: string }> {
    const html = await (
      await get(authorizeUrl(t.sandbox, { redirect_uri: 'http://localhost:3000/callback', state: 'z' }))
    ).text();
    const json = /<script type="application\/json" id="link-config">(.*?)<\/script>/s.exec(html)![1]!;
    return JSON.parse(json);
  }
  const post = (path: string, body: unknown) =>
    fetch(t.sandbox.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  test('complete needs UPDATED credentials of the session; a session ends once', async () => {
    const s = await session();
    expect((await post('/link/1.0/complete', { session: s.session })).status).toBe(400);
    expect((await post('/link/1.0/complete', { session: s.session, credentialsId: 'deadbeef' })).status).toBe(404);
    expect((await post('/link/1.0/complete', { session: 'x'.repeat(32), credentialsId: 'deadbeef' })).status).toBe(410);
    // the page cannot claim an authentication error its credentials do not have
    expect((await post('/link/1.0/fail', { session: s.session, status: 'AUTHENTICATION_ERROR' })).status).toBe(400);
    expect((await post('/link/1.0/fail', { session: s.session, status: 'SOMETHING' })).status).toBe(400);
    const ok = await post('/link/1.0/fail', { session: s.session, status: 'USER_CANCELLED' });
    expect(ok.status).toBe(200);
    const a = (await ok.json()) as { action: string; url: string };
    expect(a.action).toBe('redirect');
    expect(Object.fromEntries(new URL(a.url).searchParams)).toEqual({
      error: 'USER_CANCELLED',
      error_reason: 'USER_CANCELLED',
      message: 'The user cancelled the flow.',
      tracking_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      state: 'z',
    });
    expect((await post('/link/1.0/fail', { session: s.session, status: 'USER_CANCELLED' })).status).toBe(409);
    // the page token is revoked with the end of the session
    const r = await fetch(`${t.sandbox.baseUrl}/api/v1/providers`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(r.status).toBe(401);
  });

  test('sessions expire with the sandbox clock', async () => {
    const s = await session();
    t.sandbox.clock.advance(61 * 60 * 1000);
    expect((await post('/link/1.0/fail', { session: s.session, status: 'USER_CANCELLED' })).status).toBe(410);
  });

  test('in the browser, an expired link says so instead of going anywhere', async () => {
    const { page, errors } = await newPage();
    const before = cb.received.length;
    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        input_provider: 'se-test-password',
        input_username: 'test-user',
      }),
    );
    await page.fill('input[name=password]', 'test-password');
    t.sandbox.clock.advance(61 * 60 * 1000);
    await page.click('#submit');
    await expect(page.locator('#lead').textContent()).resolves.toBe(
      'This link has expired. Start again from the application.',
    );
    await expect(page.locator('#heading').textContent()).resolves.toBe('Something went wrong');
    expect(cb.received.length).toBe(before);
    expect(errors).toEqual([]);
  });

  test('garbage in the query or the body is a 4xx or a page, never a 5xx', async () => {
    const keys = [
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'market',
      'locale',
      'iframe',
      'input_provider',
      'input_username',
      'x',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom(...keys),
            fc.oneof(
              fc.string(),
              fc.string({ unit: 'binary' }),
              fc.constantFrom(t.sandbox.clientId, 'http://localhost:1/callback', 'accounts:read', 'true', 'SE'),
            ),
          ),
          { maxLength: 8 },
        ),
        async (pairs) => {
          const q = new URLSearchParams(pairs).toString();
          const r = await get(`${t.sandbox.linkUrl}/1.0/authorize/?${q}`);
          await r.arrayBuffer();
          expect(r.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    const s = await session();
    for (const body of [
      '',
      'null',
      '[]',
      '{',
      '"x"',
      JSON.stringify({ session: 5 }),
      JSON.stringify({ session: s.session, credentialsId: { a: 1 } }),
      JSON.stringify({ session: s.session, status: 'TEMPORARY_ERROR', credentialsId: '../../x' }),
    ]) {
      for (const path of ['/link/1.0/complete', '/link/1.0/fail']) {
        const r = await post(path, body);
        expect(r.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${path} ${body}`).toBeLessThan(500);
      }
    }
    const raw = await fetch(`${t.sandbox.linkUrl}/1.0/authorize/?client_id=%E0%A4%A`, { redirect: 'manual' });
    expect(raw.status).toBe(400);
  });
});
