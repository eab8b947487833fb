// The Events v2 signature (X-Tink-Signature: t=<unix seconds>,v1=<hex>) both sides use: the vendor
// guide's own test vector, and each way a check fails.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { signatureHeader, v2Signature, verifySignature } from '../../src/contract/webhook-signature.js';

const vector = JSON.parse(
  readFileSync(new URL('../fixtures/reference/examples/WEBHOOK_SIGNATURE.json', import.meta.url), 'utf8'),
).testVector;

test("the guide's test vector: HMAC-SHA256 over t + '.' + the raw body, hex", () => {
  expect(v2Signature(vector.secret, vector.t, vector.body)).toBe(vector.expectedHexHmacSha256);
  const header = `t=${vector.t},v1=${vector.expectedHexHmacSha256}`;
  expect(verifySignature(header, Buffer.from(vector.body), vector.secret, Number(vector.t) * 1000)).toEqual({
    ok: true,
    t: Number(vector.t),
  });
});

const body = Buffer.from('{"context":{"userId":"u"},"content":{"credentialsId":"c"},"event":"refresh:finished"}');
const now = 1_800_000_000_000;
const good = signatureHeader('s3cret', body, now);

test.each([
  ['no header', undefined, 'missing'],
  ['an empty header', '', 'missing'],
  ['no t', good.replace(/t=\d+,/, ''), 'malformed'],
  ['no v1', good.replace(/,v1=.*/, ''), 'malformed'],
  ['t not a number', good.replace(/t=\d+/, 't=soon'), 'malformed'],
  ['another secret', signatureHeader('other', body, now), 'mismatch'],
  [
    'one byte of the body changed',
    signatureHeader('s3cret', Buffer.from(body.toString().replace('"c"', '"d"')), now),
    'mismatch',
  ],
  ['a short v1', good.replace(/v1=[0-9a-f]+/, 'v1=abcd'), 'mismatch'],
])('%s is refused (%s)', (_name, header, reason) => {
  expect(verifySignature(header, body, 's3cret', now)).toEqual({ ok: false, reason });
});

test('the timestamp must be within the tolerance, either way; other keys are ignored; any v1 may match', () => {
  expect(verifySignature(good, body, 's3cret', now + 300_000).ok).toBe(true);
  expect(verifySignature(good, body, 's3cret', now + 301_000)).toEqual({ ok: false, reason: 'too old' });
  expect(verifySignature(good, body, 's3cret', now - 301_000)).toEqual({ ok: false, reason: 'in the future' });
  expect(verifySignature(good, body, 's3cret', now + 3_600_000, 7200).ok).toBe(true);
  const sig = good.split('v1=')[1]!;
  const t = good.split(',')[0]!;
  expect(verifySignature(`${t},v0=zz,v1=${'0'.repeat(64)},v1=${sig}`, body, 's3cret', now).ok).toBe(true);
});
