// One rule says which names hold a secret (src/contract/secret-names.ts): `code`, `pin`, `otp`,
// `pinCode`, `authorization_code`... are hidden; `currencyCode`, `countryCode`, `providerCode`,
// `tokenType` are ordinary fields and shown.
import { describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { isSecretName } from '../../src/contract/secret-names.js';

describe('the one rule for secret names', () => {
  test.each([
    'code',
    'code1',
    'authorization_code',
    'authorizationCode',
    'client_secret',
    'password',
    'newPassword',
    'refresh_token',
    'access_token',
    'id_token',
    'token',
    'pin',
    'PIN',
    'otp',
    'pinCode',
    'pin_code',
    'smsCode',
    'private_key',
    'apiKey',
    'X-API-Key',
    'client_assertion',
    'code_verifier',
    'webhookSecret',
    'information',
  ])('%s is a secret', (name) => expect(isSecretName(name)).toBe(true));

  test.each([
    'currencyCode',
    'countryCode',
    'merchantCategoryCode',
    'providerCode',
    'postalCode',
    'statusCode',
    'errorCode',
    'tokenType',
    'token_type',
    'nextPageToken',
    'page_token',
    'client_assertion_type',
    'client_secret_expires_at',
    'publicKey',
    'idempotencyKey',
    'pinned',
    'opinion',
    'market',
  ])('%s is not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('api --dry-run (spawned)', () => {
  test('a JSON body: currencyCode and countryCode shown, code, pin and pinCode hidden', async () => {
    const r = await spawnCli(
      [
        ...['api', 'POST', '/x', '--as', 'none', '--dry-run'],
        ...['-f', 'currencyCode=SEK', '-f', 'countryCode=SE', '-f', 'merchantCategoryCode=5411'],
        ...['-f', 'code=auth-c0de', '-F', 'pin=1234', '-f', 'pinCode=8642', '-f', 'tokenType=bearer'],
      ],
      { env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toEqual({
      currencyCode: 'SEK',
      countryCode: 'SE',
      merchantCategoryCode: '5411',
      code: '<redacted>',
      pin: '<redacted>',
      pinCode: '<redacted>',
      tokenType: 'bearer',
    });
  });

  test('a query and a form: providerCode shown, otp and authorization_code hidden', async () => {
    const e = { env: { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: 'http://127.0.0.1:9' } };
    const get = await spawnCli(
      ['api', 'GET', '/x', '--as', 'none', '--dry-run', '-f', 'providerCode=se-bank', '-f', 'otp=48213'],
      e,
    );
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toMatch(/^GET http:\/\/127\.0\.0\.1:9\/x\?providerCode=se-bank&otp=<redacted>\n/);
    const form = await spawnCli(
      [
        ...['api', 'POST', '/x', '--as', 'none', '--form', '--dry-run'],
        ...['-f', 'postalCode=11122', '-f', 'authorization_code=c0de-9'],
      ],
      e,
    );
    expect(form.code, form.stderr).toBe(0);
    expect(form.stdout).toContain('\n\npostalCode=11122&authorization_code=%3Credacted%3E\n');
  });
});
