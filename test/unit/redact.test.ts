import { describe, expect, test } from 'vitest';
import { Redactor, redactForm, redactHeaders } from '../../src/http/redact.js';

describe('redaction', () => {
  test('known secret values are replaced anywhere in a line', () => {
    const r = new Redactor();
    r.add('s3cr3t-value-123');
    expect(r.text('POST body client_secret=s3cr3t-value-123&x=1')).toBe('POST body client_secret=***&x=1');
  });

  test('kept public text (a provider name holding the password) is shown whole; the secret elsewhere is not', () => {
    const r = new Redactor();
    r.add('test-password');
    r.keep('se-test-password');
    expect(r.text('credentials for se-test-password exist; sent password=test-password')).toBe(
      'credentials for se-test-password exist; sent password=***',
    );
    // a kept value that is itself a secret is not shown
    r.keep('test-password');
    expect(r.text('x test-password y')).toBe('x *** y');
  });

  test('a secret as JSON encoders escape it (Go, Python, PHP, Jackson) and as HTML quotes it', () => {
    const r = new Redactor();
    const secret = 'p/ss&<wörd>"q\'z';
    r.add(secret);
    for (const echoed of [
      'p\\/ss\\u0026\\u003cw\\u00f6rd\\u003e\\"q\'z',
      'p/ss\\u0026\\u003cwörd\\u003e\\"q\'z',
      'p/ss&<w\\u00F6rd>\\"q\'z',
      'p/ss&amp;&lt;wörd&gt;&quot;q&#39;z',
      'p/ss&amp;&lt;wörd&gt;&#34;q&#39;z',
      'p/ss&amp;&lt;wörd&gt;&quot;q&#x27;z',
    ])
      expect(r.text(`got ${echoed}.`), echoed).toBe('got ***.');
  });

  test('short values are not treated as secrets (they would mangle text)', () => {
    const r = new Redactor();
    r.add('abc');
    expect(r.text('abc def')).toBe('abc def');
  });

  test('a short secret (a PIN, an OTP) is hidden after a secret name only, never as ordinary text', () => {
    const r = new Redactor();
    r.add('1234');
    r.add('48213');
    expect(r.text('{"pin":1234,"amount":1234}')).toBe('{"pin":"***","amount":1234}');
    expect(r.text('{"otp":"48213","currencyCode":"48213"}')).toBe('{"otp":"***","currencyCode":"48213"}');
    expect(r.text('"{\\"pinCode\\":\\"1234\\"}"')).toBe('"{\\"pinCode\\":\\"***\\"}"');
    expect(r.text('Invalid OTP 48213; code=1234&x=1; PIN: 1234')).toBe('Invalid OTP ***; code=***&x=1; PIN: ***');
    // digits that are part of something else, or come after no secret's name, stay
    expect(r.text('took 1234 ms on 2026-12-01, id 412345, pin 12345, otp 48213x')).toBe(
      'took 1234 ms on 2026-12-01, id 412345, pin 12345, otp 48213x',
    );
  });

  test('secret query parameters and URL credentials', () => {
    const r = new Redactor();
    const out = r.url('https://user:pw@api.example.com/cb?code=abc123&state=xyz&refresh_token=rt&pageSize=5');
    expect(out).not.toContain('abc123');
    expect(out).not.toContain(':pw@');
    expect(out).not.toContain('refresh_token=rt');
    expect(out).toContain('state=xyz');
    expect(out).toContain('pageSize=5');
    // the names are the one rule's: a PIN or OTP is hidden, a currency or country code is not
    const named = r.url('https://api.example.com/x?otp=48213&pin_code=1&countryCode=SE&currencyCode=SEK');
    expect(named).toBe('https://api.example.com/x?otp=***&pin_code=***&countryCode=SE&currencyCode=SEK');
  });

  test('headers and forms', () => {
    expect(redactHeaders({ Authorization: 'Bearer abc.def', Accept: 'x' })).toEqual({
      Authorization: 'Bearer ***',
      Accept: 'x',
    });
    expect(redactHeaders({ authorization: 'Basic dXNlcjpwdw==' }).authorization).toBe('Basic ***');
    expect(redactForm({ client_id: 'id', client_secret: 'sec', code: 'c', grant_type: 'authorization_code' })).toEqual({
      client_id: 'id',
      client_secret: '***',
      code: '***',
      grant_type: 'authorization_code',
    });
  });
});
