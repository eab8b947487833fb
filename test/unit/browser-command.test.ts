// How `auth link` (and a connect's redirect) opens the browser on each platform: the URL whole, as one
// argv element, never read by a shell. Windows cannot be run here: what would reach the program's
// command line is checked instead (Node joins a verbatim argv with spaces).
import { expect, test } from 'vitest';
import { authorizeUrl, browserCommand } from '../../src/auth/link.js';

// every character cmd.exe treats as its own (& ^ % | < > " and a space), in a query value and the path
const hostile = 'a&b^c%PATH%|d <e> "f" \'g\'';
// the address `auth link` opens, as it builds it
const url = authorizeUrl({
  linkUrl: 'https://link.example',
  clientId: 'c1',
  redirectUri: 'http://localhost:3000/callback',
  scopes: ['accounts:read', 'transactions:read'],
  username: hostile,
  state: 'S^1',
});
const withRawChars = `https://link.example/x y"z|w/?q=1&r=^2&s=%41 "q"`;

/** The URL a Windows program would find after its first argument, as rundll32 reads its command line. */
function windowsUrl(cmd: { cmd: string; args: string[]; windowsVerbatimArguments?: boolean }): string {
  expect(cmd.windowsVerbatimArguments).toBe(true);
  const line = cmd.args.join(' ');
  const prefix = 'url.dll,FileProtocolHandler ';
  expect(line.startsWith(prefix)).toBe(true);
  return line.slice(prefix.length);
}

test('Windows: rundll32 gets the whole URL, no cmd.exe reads it', () => {
  const c = browserCommand(url, 'win32', { SystemRoot: 'C:\\Windows' })!;
  expect(c.cmd).toBe('C:\\Windows\\System32\\rundll32.exe');
  expect(c.cmd).not.toMatch(/cmd(\.exe)?$/i);
  const got = windowsUrl(c);
  expect(got).toBe(url);
  // every parameter arrives, the state last of them
  const params = new URL(got).searchParams;
  expect(params.get('input_username')).toBe(hostile);
  expect(params.get('state')).toBe('S^1');
  expect(params.get('client_id')).toBe('c1');
});

test('Windows: spaces and quotes in a URL are encoded, so the command line holds one URL', () => {
  const got = windowsUrl(browserCommand(withRawChars, 'win32', { windir: 'D:\\Win' })!);
  expect(got).not.toMatch(/[\s"]/);
  expect(got).toBe(new URL(withRawChars).href);
  expect(new URL(got).searchParams.get('r')).toBe('^2');
});

test('macOS and Linux: open / xdg-open get the URL as one argv element', () => {
  const mac = browserCommand(url, 'darwin', {})!;
  expect(mac).toEqual({ cmd: 'open', args: [url] });
  const linux = browserCommand(url, 'linux', { DISPLAY: ':0' })!;
  expect(linux).toEqual({ cmd: 'xdg-open', args: [url] });
  expect(browserCommand(withRawChars, 'linux', { WAYLAND_DISPLAY: 'w' })!.args).toEqual([new URL(withRawChars).href]);
  // no display: nothing to open
  expect(browserCommand(url, 'linux', {})).toBeUndefined();
});

test('only http(s) URLs are opened: another scheme would start a program, not a page', () => {
  for (const platform of ['win32', 'darwin', 'linux'] as const) {
    expect(browserCommand('file:///C:/Windows/System32/calc.exe', platform, { DISPLAY: ':0' })).toBeUndefined();
    expect(browserCommand('javascript:alert(1)', platform, { DISPLAY: ':0' })).toBeUndefined();
    expect(browserCommand('not a url', platform, { DISPLAY: ':0' })).toBeUndefined();
  }
});
