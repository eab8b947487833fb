// `transactions list -o ndjson` to a pipe reads each page's bytes: a compact page is written as it
// came, the next page is asked for with the token read from the body's end, and anything the byte
// path declines (pretty printed, not UTF-8, not JSON) takes the parsing path with its errors.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { scriptedServer, type Step, readyTokenEnv } from '../helpers/scripted-server.js';

let server: Awaited<ReturnType<typeof scriptedServer>>;
/** The body of each page by its pageToken ('' for the first). */
let pages: Record<string, Buffer> = {};

beforeAll(async () => {
  const step: Step = (req, res) => {
    const token = new URL(req.url!, 'http://x').searchParams.get('pageToken') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(pages[token] ?? Buffer.from('{"transactions":[],"nextPageToken":""}'));
  };
  server = await scriptedServer(() => step);
});
afterAll(() => server.close());

const list = () =>
  spawnCli(['transactions', 'list', '--all', '-o', 'ndjson'], {
    env: readyTokenEnv(server.url),
  });

const a = '{"id":"a","amount":{"value":{"unscaledValue":"-1050","scale":"2"}},"n":1.50}';
const b = '{"id":"b","descriptions":{"display":"Å, \\"quoted\\" ]},{"}}';

test('a compact page comes out byte for byte; a pretty-printed one is parsed; the token at the end is followed', async () => {
  server.seen.length = 0;
  pages = {
    '': Buffer.from(`{"transactions":[${a},${b}],"nextPageToken":"t2"}`),
    t2: Buffer.from(JSON.stringify({ transactions: [{ id: 'c' }], nextPageToken: '' }, null, 2)),
  };
  const r = await list();
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe(`${a}\n${b}\n{"id":"c"}\n`);
  expect(server.seen.map((s) => new URL(s.url, 'http://x').searchParams.get('pageToken'))).toEqual([null, 't2']);
});

test('a body that is not UTF-8 is decoded as before (a replacement character), not passed through', async () => {
  pages = {
    '': Buffer.concat([
      Buffer.from('{"transactions":[{"id":"'),
      Buffer.from([0xff]),
      Buffer.from('"}],"nextPageToken":""}'),
    ]),
  };
  const r = await list();
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ id: '\uFFFD' });
});

test('a page that is not JSON (a trailing comma) is exit 7 naming it, with nothing written', async () => {
  pages = { '': Buffer.from(`{"transactions":[${a},],"nextPageToken":"t2"}`) };
  const r = await list();
  expect(r.code).toBe(7);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/GET \/data\/v2\/transactions answered 200/);
});
