// The JSON and text a user hands bankctl (`api --input`, connector `--file`, `--answers`,
// `--parameters`, sandbox inputs) must be UTF-8 as written. Node's decoders made a Latin-1 byte
// U+FFFD without a word, and stdin read chunk by chunk made a character cut between two reads two
// of them: a body changed on its way to the service, exit 0. Now the first bad byte is named by
// FILE:LINE and column, exit 2, nothing sent; and stdin is decoded whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawnCli, tempDir } from '../helpers/cli.js';
import { reply, scriptedServer } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer(() => reply(200, '{"ok":true}'));
});
afterAll(async () => {
  await server.close();
});

function env(): Record<string, string> {
  return { BANKCTL_CONFIG_DIR: tempDir(), BANKCTL_BASE_URL: server.url, BANKCTL_TOKEN: 'tok-123456' };
}

function file(name: string, bytes: Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

// "Göran" as a Latin-1 export writes it: one byte 0xF6
const latin1Body = Buffer.from('{\n  "market": "SE",\n  "name": "G\u00f6ran"\n}', 'latin1');
const column = '  "name": "G'.length + 1;

describe('input that is not UTF-8', () => {
  test('api --input, a file or stdin: exit 2 naming line and column, nothing sent', async () => {
    const sent = server.seen.length;
    const path = file('latin1.json', latin1Body);
    const fromFile = await spawnCli(['api', 'POST', '/api/v1/user/create', '--input', path], { env: env() });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(`${path}:3: not valid UTF-8 (byte 0xF6 at column ${column})`);
    const fromStdin = await spawnCli(['api', 'POST', '/api/v1/user/create', '--input', '-'], {
      env: env(),
      stdin: latin1Body,
    });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toContain(`stdin:3: not valid UTF-8 (byte 0xF6 at column ${column})`);
    expect(server.seen.length).toBe(sent);
  });

  test('connector --file, --answers and consents --parameters say the same', async () => {
    const sent = server.seen.length;
    const json = file('users.json', latin1Body);
    const c = await spawnCli(['connector', 'batch', '--file', json], { env: env() });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain(`--file: ${json}:3: not valid UTF-8 (byte 0xF6`);
    const answers = file('answers.txt', Buffer.from('otp=123\nname=G\u00f6ran\n', 'latin1'));
    const a = await spawnCli(
      ['credentials', 'connect', '--provider', 'se-test-password', '--user', 'u1', '--answers', answers],
      { env: env() },
    );
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`--answers: ${answers}:2: not valid UTF-8 (byte 0xF6 at column 7)`);
    const p = await spawnCli(
      ['consents', 'v2', 'create', '--provider', 'uk-x', '--for-user', 'u1', '--parameters', '-'],
      { env: env(), stdin: latin1Body },
    );
    expect(p.code).toBe(2);
    expect(p.stderr).toContain('--parameters: stdin:3: not valid UTF-8');
    expect(server.seen.length).toBe(sent);
  });

  test('a character that stdin delivers in two reads arrives whole', async () => {
    // the euro sign's three bytes at 65,535: a pipe hands Node 65,536 bytes at a time
    const head = '{"note":"';
    const before = 'x'.repeat(65_535 - head.length);
    const body = `${head}${before}\u20ac${'y'.repeat(10_000)}"}`;
    expect(Buffer.from(body).indexOf(Buffer.from('\u20ac'))).toBe(65_535);
    const r = await spawnCli(['api', 'POST', '/api/v1/user/create', '--input', '-'], { env: env(), stdin: body });
    expect(r.code, r.stderr).toBe(0);
    expect(server.seen.at(-1)!.body).toBe(body);
  });
});
