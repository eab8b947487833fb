// The Host check of the local servers (src/contract/host.ts) on its own.
import { expect, test } from 'vitest';
import { isAllowedHost } from '../../src/contract/host.js';

test('isAllowedHost: loopback names, IP literals and the name the server was started on', () => {
  expect(isAllowedHost('localhost:8787', '127.0.0.1')).toBe(true);
  expect(isAllowedHost('LOCALHOST.', '127.0.0.1')).toBe(true);
  expect(isAllowedHost('127.0.0.1:8787', '127.0.0.1')).toBe(true);
  expect(isAllowedHost('[::1]:8787', '::1')).toBe(true);
  expect(isAllowedHost('10.0.0.5:8787', '0.0.0.0')).toBe(true);
  expect(isAllowedHost('devbox.lan:8787', 'devbox.lan')).toBe(true);
  expect(isAllowedHost(undefined, '127.0.0.1')).toBe(true);
  expect(isAllowedHost('evil.example:8787', '127.0.0.1')).toBe(false);
  expect(isAllowedHost('localhost.evil.example', '127.0.0.1')).toBe(false);
  expect(isAllowedHost('127.0.0.1.nip.io', '127.0.0.1')).toBe(false);
  expect(isAllowedHost('', '127.0.0.1')).toBe(false);
});
