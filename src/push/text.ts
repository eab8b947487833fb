// A file's text in chunks (UTF-8 decoded across chunk boundaries, a leading byte order mark left
// out), its raw bytes fed to a hash on the way: the content fingerprint costs no second read. Bytes
// that are not UTF-8 are a NotUtf8Error naming their line, never a silent U+FFFD.
import { createReadStream } from 'node:fs';
import type { Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { BOM_CHAR } from './bytes.js';
import { Utf8Reads } from '../fs/utf8.js';

export async function* textChunks(file: string, hash?: Hash): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  const utf8 = new Utf8Reads(file);
  let first = true;
  for await (const b of createReadStream(file, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    hash?.update(b);
    await utf8.check(b);
    let text = decoder.write(b);
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === BOM_CHAR) text = text.slice(1);
      first = false;
    }
    if (text) yield text;
  }
  await utf8.end();
  const rest = decoder.end();
  if (rest) yield rest;
}
