// The hosted link flow clicked through in a real headless browser: picker, form, progress,
// supplemental rounds, eID QR code, third-party app, cancel, failures, iframe mode, and the
// 24-hour life of the temporary user.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { issueCode } from '../../src/sandbox/routes/oauth.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { BIN, tempDir } from '../helpers/cli.js';
import {
  authorizeUrl,
  exchange,
  launchBrowser,
  needsChromium,
  startCallback,
  waitForCallback,
  watchErrors,
  type Callback,
} from './helpers.js';

// Up to five of these pages run at once in one headless browser, and the slow sandbox makes the eID
// and decoupled flows wait its authentication delay: 10 to 25 s each on a quiet 2-core machine, more
// while the rest of the suite runs beside them. The limit is for a hang, not for a slow machine.
vi.setConfig({ testTimeout: 120_000 });

let t: TestEnv;
let slow: TestEnv;
let browser: Browser;
let cb: Callback;
const contexts: BrowserContext[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  [t, slow, browser, cb] = await Promise.all([
    startTestSandbox(),
    // the eID and app screens show for this long before the sandbox approves on its own: long enough
    // that a loaded machine still reads them before they go (at 3 s they were sometimes gone)
    startTestSandbox({ authDelayMs: 10_000 }),
    launchBrowser(),
    startCallback(),
  ]);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await Promise.all([t?.close(), slow?.close(), cb?.close()]);
});

/** The page's own configuration (session and page token), as the page script reads it. */
async function pageConfig(page: Page): Promise<{ session: string; token: string }> {
  return JSON.parse((await page.locator('#link-config').textContent())!);
}

/** A token for the temporary user behind a page, minted the way the service would. */
async function tokenOfUser(sb: Sandbox, userId: string): Promise<string> {
  const code = issueCode(sb.store, { clientId: sb.clientId, userId, scopes: ['credentials:read'], withRefresh: false });
  return (await exchange(sb, code)).body.access_token;
}

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.newContext();
  contexts.push(ctx);
  const page = await ctx.newPage();
  return { page, errors: watchErrors(page) };
}

needsChromium.concurrent('the hosted link flow in a browser', () => {
  test('picker, credentials form, progress, redirect with code and state; the code exchanges to a token with a refresh_token', async () => {
    const { page, errors } = await newPage();
    const state = 'st<"&>' + Math.random().toString(36).slice(2);
    await page.goto(
      authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, state, scope: 'accounts:read,credentials:read' }),
    );
    await expect(page.locator('#heading').textContent()).resolves.toBe('Choose your bank');
    await expect(page.locator('#market').inputValue()).resolves.toBe('SE');
    // searchable: typing narrows the list to the test password providers
    await page.locator('[data-provider]').first().waitFor();
    await page.fill('#search', 'test password');
    const names = await page
      .locator('[data-provider]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-provider')));
    expect(names).toContain('se-test-password');
    expect(names).not.toContain('se-test-other-eid-successful');
    expect(names.every((n) => n!.startsWith('se-'))).toBe(true);
    await page.click('[data-provider="se-test-password"]');

    await expect(page.locator('#heading').textContent()).resolves.toBe('Log in to Test Password (SE)');
    await expect(page.locator('input[name=password]').getAttribute('type')).resolves.toBe('password');
    await expect(page.locator('input[name=username]').getAttribute('type')).resolves.toBe('text');
    // empty submit: the form says what is missing and nothing is sent
    await page.click('#submit');
    await expect(page.locator('[data-field=username] .error').textContent()).resolves.toBe('This field is required.');
    await page.fill('input[name=username]', 'test-user');
    await page.fill('input[name=password]', 'test-password');
    await page.click('#submit');

    const q = await waitForCallback(page, cb);
    expect(q.get('state')).toBe(state);
    expect(q.get('error')).toBeNull();
    const code = q.get('code')!;
    expect(code).toBeTruthy();
    expect(cb.received.some((r) => r.get('code') === code)).toBe(true);

    const tok = await exchange(t.sandbox, code);
    expect(tok.status).toBe(200);
    expect(tok.body).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'accounts:read,credentials:read' });
    expect(tok.body.refresh_token).toBeTruthy();
    // the token belongs to the temporary user who connected the bank: the credentials are there
    const list = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', {
      headers: { authorization: `Bearer ${tok.body.access_token}` },
    });
    expect(list.status).toBe(200);
    expect(list.json().credentials).toEqual([
      expect.objectContaining({ providerName: 'se-test-password', status: 'UPDATED' }),
    ]);
    // single use
    expect((await exchange(t.sandbox, code)).status).toBe(400);
    const refreshed = await raw(t.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      form: {
        client_id: t.sandbox.clientId,
        client_secret: t.sandbox.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: tok.body.refresh_token,
      },
    });
    expect(refreshed.status).toBe(200);
    expect(errors).toEqual([]);
  });

  test('two supplemental rounds with every field kind: immutable value, hint, numeric with pattern, masked, optional', async () => {
    const { page, errors } = await newPage();
    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'multi',
        input_provider: 'se-test-other-multi-supplemental',
        input_username: 'test-user',
      }),
    );
    // input_provider skips the picker; input_username pre-fills the username
    await expect(page.locator('#heading').textContent()).resolves.toBe('Log in to Test Multi-Supplemental');
    await expect(page.locator('input[name=username]').inputValue()).resolves.toBe('test-user');
    await expect(page.locator('#back').count()).resolves.toBe(0);
    await page.click('#submit');

    await page.locator('#supplemental-form input[name=code1]').waitFor();
    await expect(page.locator('#heading').textContent()).resolves.toBe('More information needed');
    const challenge = page.locator('input[name=challenge]');
    await expect(challenge.inputValue()).resolves.toBe('4711');
    await expect(challenge.getAttribute('readonly')).resolves.not.toBeNull();
    await expect(page.locator('[data-field=challenge] .help').textContent()).resolves.toBe(
      'Type this challenge into your card reader.',
    );
    await expect(page.locator('input[name=code1]').getAttribute('placeholder')).resolves.toBe('1234');
    await expect(page.locator('input[name=code1]').getAttribute('inputmode')).resolves.toBe('numeric');
    await page.fill('input[name=code1]', '12');
    await page.click('#submit');
    await expect(page.locator('[data-field=code1] .error').textContent()).resolves.toBe('Enter at least 4 characters.');
    await page.fill('input[name=code1]', '12a4');
    await page.click('#submit');
    await expect(page.locator('[data-field=code1] .error').textContent()).resolves.toBe('Only digits are allowed.');
    await page.fill('input[name=code1]', '1234');
    await page.click('#submit');

    // the second round is recognised by its changed statusUpdated
    await page.locator('#supplemental-form input[name=code2]').waitFor();
    await expect(page.locator('input[name=code2]').getAttribute('type')).resolves.toBe('password');
    await expect(page.locator('label[for]', { hasText: 'Name this device (optional)' }).count()).resolves.toBe(1);
    await page.fill('input[name=code2]', '56789');
    await page.click('#submit');

    const q = await waitForCallback(page, cb);
    expect(q.get('state')).toBe('multi');
    expect((await exchange(t.sandbox, q.get('code')!)).body.refresh_token).toBeTruthy();
    expect(errors).toEqual([]);
  });

  test('account opt-in (opt_in=true): one checkbox per account with its details; only the chosen accounts are connected', async () => {
    const { page, errors } = await newPage();
    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'opt',
        opt_in: 'true',
        input_provider: 'se-test-password',
        input_username: 'test-user',
      }),
    );
    await page.fill('input[name=password]', 'test-password');
    await page.click('#submit');
    await page.locator('#supplemental-form input[type=checkbox]').first().waitFor();
    const boxes = page.locator('#supplemental-form input[type=checkbox]');
    const n = await boxes.count();
    expect(n).toBeGreaterThanOrEqual(3);
    // the account's details from additionalInfo: type, balance and currency
    await expect(
      page.locator('#supplemental-form .field').first().locator('.help').first().textContent(),
    ).resolves.toMatch(/^(CHECKING|SAVINGS|INVESTMENT|MORTGAGE|LOAN|CREDIT_CARD|PENSION) · -?\d+(\.\d+)? SEK/);
    const chosen = [await boxes.nth(0).getAttribute('name'), await boxes.nth(2).getAttribute('name')];
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    await page.click('#submit');
    const q = await waitForCallback(page, cb);
    const tok = (await exchange(t.sandbox, q.get('code')!)).body;
    const accounts = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/accounts/list', {
      headers: { authorization: `Bearer ${tok.access_token}` },
    });
    expect(accounts.status).toBe(200);
    expect(
      accounts
        .json()
        .accounts.map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual(chosen.sort());
    expect(errors).toEqual([]);
  });

  test('the cancel button ends the flow with USER_CANCELLED, from any screen', async () => {
    const { page } = await newPage();
    await page.goto(authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, state: 'c1' }));
    await page.locator('[data-provider]').first().waitFor();
    await page.click('#cancel');
    let q = await waitForCallback(page, cb);
    expect(Object.fromEntries(q)).toEqual({
      error: 'USER_CANCELLED',
      error_reason: 'USER_CANCELLED',
      message: 'The user cancelled the flow.',
      state: 'c1',
      tracking_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    // in the middle of a supplemental round
    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'c2',
        input_provider: 'se-test-other-multi-supplemental',
        input_username: 'test-user',
      }),
    );
    await page.click('#submit');
    await page.locator('input[name=code1]').waitFor();
    await expect(page.locator('#cancel').textContent()).resolves.toBe('Cancel');
    const userId = t.sandbox.store.tokens.get((await pageConfig(page)).token)!.userId!;
    await page.click('#cancel');
    q = await waitForCallback(page, cb);
    expect(q.get('error')).toBe('USER_CANCELLED');
    expect(q.get('state')).toBe('c2');
    expect(q.get('code')).toBeNull();
    // the half-made connection does not stay behind
    const list = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', {
      headers: { authorization: `Bearer ${await tokenOfUser(t.sandbox, userId)}` },
    });
    expect(list.json().credentials).toEqual([]);
  });

  test('a failing username ends in AUTHENTICATION_ERROR with the message and the credentials id; temp... in TEMPORARY_ERROR', async () => {
    const { page } = await newPage();
    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'f',
        input_provider: 'se-test-password',
        input_username: 'fail-me',
      }),
    );
    await page.fill('input[name=password]', 'whatever');
    await page.click('#submit');
    let q = await waitForCallback(page, cb);
    expect(q.get('error')).toBe('AUTHENTICATION_ERROR');
    expect(q.get('message')).toBe('Incorrect username or password.');
    expect(q.get('credentials')).toMatch(/^[0-9a-f]{32}$/);
    expect(q.get('state')).toBe('f');
    expect(q.get('code')).toBeNull();

    await page.goto(
      authorizeUrl(t.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'tmp',
        input_provider: 'se-test-password',
        input_username: 'temp-down',
      }),
    );
    await page.fill('input[name=password]', 'test-password');
    await page.click('#submit');
    q = await waitForCallback(page, cb);
    expect(q.get('error')).toBe('TEMPORARY_ERROR');
    expect(q.get('message')).toMatch(/temporarily unavailable/);
    expect(q.get('credentials')).toBeNull();
  });

  test('mobile eID: the QR code from /qr and the autostart link are shown while the app is awaited', async () => {
    const { page, errors } = await newPage();
    await page.goto(
      authorizeUrl(slow.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'eid',
        input_provider: 'se-test-other-eid-successful',
        input_username: 'test-user',
      }),
    );
    await page.click('#submit');
    await page.locator('#qr:not([hidden])').waitFor();
    await expect(page.locator('#heading').textContent()).resolves.toBe('Log in with Mobile BankID');
    const src = (await page.locator('#qr').getAttribute('src'))!;
    expect(src).toMatch(/^data:image\/png;base64,/);
    // a real PNG, rendered by the browser at a QR's size
    expect(
      await page.locator('#qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(50);
    expect(await page.locator('#eid-open').getAttribute('href')).toMatch(
      /^bankid:\/\/\/\?autostarttoken=[0-9a-f-]{36}&redirect=null$/,
    );
    const q = await waitForCallback(page, cb);
    expect(q.get('code')).toBeTruthy();
    expect(errors).toEqual([]);
  });

  test('third-party app: the app links are shown; opening the app finishes the authentication', async () => {
    const { page, errors } = await newPage();
    await page.goto(
      authorizeUrl(slow.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'app',
        input_provider: 'se-test-other-third-party-app-successful',
        input_username: 'test-user',
      }),
    );
    await page.click('#submit');
    await page.locator('#app-open').waitFor();
    await expect(page.locator('#heading').textContent()).resolves.toBe('Confirm in the app');
    expect(await page.locator('#app-store').getAttribute('href')).toBe('https://apps.apple.com/app/id000000000');
    const href = (await page.locator('#app-open').getAttribute('href'))!;
    expect(href).toContain('/sandbox/test-bank/authorize?state=');
    // the "app": the test bank's page opens in a new tab and signs in
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click('#app-open')]);
    await tab.waitForLoadState();
    expect(await tab.textContent('body')).toMatch(/You are logged in/);
    const q = await waitForCallback(page, cb);
    expect(q.get('code')).toBeTruthy();
    expect(q.get('state')).toBe('app');
    expect(errors).toEqual([]);
  });

  // two flows in one test, each waiting the slow sandbox's whole authentication delay: twice the others' limit
  test("redirect authentication: the bank's login page is linked; decoupled: the bank's instruction is shown", async () => {
    const { page, errors } = await newPage();
    await page.goto(
      authorizeUrl(slow.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'r',
        input_provider: 'se-test-open-banking-redirect',
        input_username: 'test-user',
      }),
    );
    await page.click('#submit');
    await page.locator('#app-open').waitFor();
    await expect(page.locator('#heading').textContent()).resolves.toBe('Log in at your bank');
    await expect(page.locator('#app-open').textContent()).resolves.toBe('Open your bank’s login page');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.click('#app-open')]);
    await tab.waitForLoadState();
    let q = await waitForCallback(page, cb);
    expect(q.get('code')).toBeTruthy();

    await page.goto(
      authorizeUrl(slow.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'd',
        input_provider: 'se-test-open-banking-decoupled-successful',
        input_username: 'test-user',
      }),
    );
    await page.click('#submit');
    await expect(page.locator('#status-payload').textContent()).resolves.toBe(
      "Open your bank's app on your phone and confirm the login.",
    );
    await expect(page.locator('#status').textContent()).resolves.toBe('Logging in…');
    q = await waitForCallback(page, cb);
    expect(q.get('state')).toBe('d');
    expect(q.get('code')).toBeTruthy();
    expect(errors).toEqual([]);
  }, 180_000);

  test('credentials that vanish under the page end the flow in INTERNAL_ERROR', async () => {
    const { page } = await newPage();
    await page.goto(
      authorizeUrl(slow.sandbox, {
        redirect_uri: cb.redirectUri,
        state: 'gone',
        input_provider: 'se-test-other-eid-successful',
        input_username: 'test-user',
      }),
    );
    await page.click('#submit');
    await page.locator('#eid-open').waitFor();
    const { token } = await pageConfig(page);
    const list = await raw(slow.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', {
      headers: { authorization: `Bearer ${token}` },
    });
    const id = list.json().credentials[0].id;
    expect(
      (
        await raw(slow.sandbox.baseUrl, 'DELETE', `/api/v1/credentials/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(204);
    const q = await waitForCallback(page, cb);
    expect(Object.fromEntries(q)).toEqual({
      error: 'INTERNAL_ERROR',
      error_reason: 'INTERNAL_ERROR',
      message: 'The link flow could not continue because of an internal error.',
      state: 'gone',
      tracking_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  test('iframe=true: the result is posted to the parent page instead of a redirect', async () => {
    const { page, errors } = await newPage();
    const src = (p: Record<string, string>) =>
      authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri, iframe: 'true', ...p });
    const parent = (url: string) =>
      `<!doctype html><title>parent</title><h1>Embedding app</h1><iframe id="link" width="600" height="700" src="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"></iframe>` +
      `<script>window.messages=[];window.addEventListener('message',function(e){window.messages.push({origin:e.origin,data:e.data});});</script>`;
    const messages = async (n: number) => {
      await page.waitForFunction((k) => (globalThis as unknown as { messages: unknown[] }).messages.length >= k, n, {
        timeout: 15_000,
      });
      return page.evaluate(
        () => (globalThis as unknown as { messages: Array<{ origin: string; data: any }> }).messages,
      );
    };

    await page.goto(
      cb.setPage(
        '/iframe-1',
        parent(src({ state: 'i1', input_provider: 'se-test-password', input_username: 'test-user' })),
      ),
    );
    const frame = page.frameLocator('#link');
    await frame.locator('input[name=password]').fill('test-password');
    await frame.locator('#submit').click();
    const [ok] = await messages(1);
    expect(ok!.origin).toBe(t.sandbox.baseUrl);
    expect(ok!.data).toEqual({
      type: 'code',
      data: expect.any(String),
      additionalInformation: { credentialsId: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    expect((await exchange(t.sandbox, ok!.data.data)).body.refresh_token).toBeTruthy();
    await expect(frame.locator('#heading').textContent()).resolves.toBe('Your bank is connected');
    expect(new URL(page.url()).pathname).toBe('/iframe-1');

    // AUTHENTICATION_ERROR carries the credentials object
    await page.goto(
      cb.setPage(
        '/iframe-2',
        parent(src({ state: 'i2', input_provider: 'se-test-password', input_username: 'fail-x' })),
      ),
    );
    await frame.locator('input[name=password]').fill('nope');
    await frame.locator('#submit').click();
    const [err] = await messages(1);
    expect(err!.data).toMatchObject({
      type: 'error',
      error: {
        status: 'AUTHENTICATION_ERROR',
        message: 'Incorrect username or password.',
        userMessage: expect.stringMatching(/could not log you in/),
      },
      data: {
        providerName: 'se-test-password',
        status: 'AUTHENTICATION_ERROR',
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    });

    // cancel
    await page.goto(cb.setPage('/iframe-3', parent(src({ state: 'i3' }))));
    await frame.locator('[data-provider]').first().waitFor();
    await frame.locator('#cancel').click();
    const [cancelled] = await messages(1);
    expect(cancelled!.data).toEqual({
      type: 'error',
      error: {
        status: 'USER_CANCELLED',
        message: 'The user cancelled the flow.',
        userMessage: 'You cancelled the connection.',
      },
    });
    expect(new URL(page.url()).pathname).toBe('/iframe-3');
    expect(errors).toEqual([]);
  });

  test('over https (sandbox --tls) the service reads providers and credentials through its own TLS port', async () => {
    const tls = await startTestSandbox({ tls: { dir: tempDir() } });
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
    contexts.push(ctx);
    try {
      const page = await ctx.newPage();
      expect(tls.sandbox.linkUrl).toMatch(/^https:/);
      await page.goto(
        authorizeUrl(tls.sandbox, {
          redirect_uri: cb.redirectUri,
          state: 'tls',
          input_provider: 'se-test-password',
          input_username: 'test-user',
        }),
      );
      await page.fill('input[name=password]', 'test-password');
      await page.click('#submit');
      const q = await waitForCallback(page, cb);
      expect(q.get('state')).toBe('tls');
      const code = q.get('code')!;
      const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const form = new URLSearchParams({
          client_id: tls.sandbox.clientId,
          client_secret: tls.sandbox.clientSecret,
          grant_type: 'authorization_code',
          code,
        }).toString();
        const req = httpsRequest(
          `${tls.sandbox.baseUrl}/api/v1/oauth/token`,
          {
            method: 'POST',
            ca: readFileSync(tls.sandbox.caFile!),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end(form);
      });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).refresh_token).toBeTruthy();
    } finally {
      await tls.close();
    }
  });

  test('outside iframe mode the pages refuse to be framed', async () => {
    const { page } = await newPage();
    const url = authorizeUrl(t.sandbox, { redirect_uri: cb.redirectUri });
    const r = await fetch(url);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    await page.goto(
      cb.setPage(
        '/framed',
        `<!doctype html><iframe id="link" onload="window.loaded=true" src="${url.replace(/&/g, '&amp;')}"></iframe>`,
      ),
    );
    await page.waitForFunction(() => (globalThis as unknown as { loaded?: boolean }).loaded === true);
    expect(await page.frameLocator('#link').locator('#heading, #cancel').count()).toBe(0);
  });

  test('the temporary user, its data and its refresh token are gone after 24 hours (sandbox clock)', async () => {
    // its own sandbox: moving the clock must not expire the pages of the tests running alongside
    const own = await startTestSandbox();
    const { page } = await newPage();
    await page.goto(
      authorizeUrl(own.sandbox, {
        redirect_uri: cb.redirectUri,
        scope: 'credentials:read',
        input_provider: 'se-test-password',
        input_username: 'test-user',
      }),
    );
    await page.fill('input[name=password]', 'test-password');
    await page.click('#submit');
    const q = await waitForCallback(page, cb);
    const tok = (await exchange(own.sandbox, q.get('code')!)).body;
    const auth = { authorization: `Bearer ${tok.access_token}` };
    const accounts = await raw(own.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', { headers: auth });
    expect(accounts.status).toBe(200);
    const userId = own.sandbox.store.tokens.get(tok.access_token)!.userId!;
    expect(own.sandbox.store.users.get(userId)?.expiresAt).toBe(
      own.sandbox.store.users.get(userId)!.created + 24 * 3600 * 1000,
    );

    own.sandbox.clock.advance(23 * 3600 * 1000);
    const early = await raw(own.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      form: {
        client_id: own.sandbox.clientId,
        client_secret: own.sandbox.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: tok.refresh_token,
      },
    });
    expect(early.status).toBe(200);
    own.sandbox.clock.advance(3600 * 1000 + 1);
    const late = await raw(own.sandbox.baseUrl, 'POST', '/api/v1/oauth/token', {
      form: {
        client_id: own.sandbox.clientId,
        client_secret: own.sandbox.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: tok.refresh_token,
      },
    });
    expect(late.status).toBe(400);
    // a fresh access token from the 23rd hour no longer opens the data
    const after = await raw(own.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', {
      headers: { authorization: `Bearer ${early.json().access_token}` },
    });
    expect(after.status).toBe(401);
    expect(own.sandbox.store.users.has(userId)).toBe(false);
    await own.close();
  });
});

// The real `bankctl auth link` (bin/bankctl.js, built by `npm test` or `node scripts/build.mjs`) with
// the browser on the sandbox link pages: the CLI and the service fit together.
function startLink(args: string[], env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [BIN, 'auth', 'link', '--no-browser', '--port', '0', '--wait-timeout', '30', ...args],
    { env: { PATH: process.env.PATH, ...env } },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  const exit = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c) => {
      err += c;
      const m = /(http:\/\/\S+\/1\.0\/authorize\/\S+)/.exec(err);
      if (m && /Waiting/.test(err)) resolve(m[1]!);
    });
    void exit.then(() => reject(new Error(`bankctl exited early: ${err}`)));
  });
  return { url, exit, stdout: () => out, stderr: () => err };
}

needsChromium.concurrent('bankctl auth link against the sandbox link service', () => {
  test('the real bankctl auth link --no-browser --port 0: the browser connects a test bank; the CLI exits 0 with the user token and a stored refresh token', async () => {
    const configDir = tempDir();
    const run = startLink(
      ['--provider', 'se-test-password', '--username', 'test-user', '--scope', 'accounts:read,credentials:read'],
      { ...t.env, BANKCTL_CONFIG_DIR: configDir },
    );
    const url = await run.url;
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await page.goto(url);
    await expect(page.locator('input[name=username]').inputValue()).resolves.toBe('test-user');
    await page.fill('input[name=password]', 'test-password');
    await page.click('#submit');
    // the CLI's own callback page
    await page.waitForURL(/\/callback\?/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connected');
    expect(await run.exit).toBe(0);
    await ctx.close();

    const token = JSON.parse(run.stdout());
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'accounts:read,credentials:read' });
    expect(token.refresh_token).toBeTruthy();
    expect(readFileSync(join(configDir, 'tokens.json'), 'utf8')).toContain(token.refresh_token);
    const creds = await raw(t.sandbox.baseUrl, 'GET', '/api/v1/credentials/list', {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(creds.json().credentials).toEqual([
      expect.objectContaining({ providerName: 'se-test-password', status: 'UPDATED' }),
    ]);
    expect(errors).toEqual([]);
  });

  test('a cancel in the browser ends the CLI with exit 9 naming USER_CANCELLED', async () => {
    const run = startLink([], { ...t.env, BANKCTL_CONFIG_DIR: tempDir() });
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(await run.url);
    await page.locator('[data-provider]').first().waitFor();
    await page.click('#cancel');
    await page.waitForURL(/\/callback\?/);
    expect(await run.exit).toBe(9);
    await ctx.close();
    expect(run.stderr()).toMatch(/the link flow ended in USER_CANCELLED: The user cancelled the flow\./);
  });
});
