// Records keyed by a string and found from its bytes in a buffer, without decoding them.

export function sameBytes(b: Uint8Array, s: number, len: number, k: Uint8Array): boolean {
  for (let i = 0; i < len; i++) if (b[s + i] !== k[i]) return false;
  return true;
}

/** FNV-1a over b[s, e). */
export function hashBytes(b: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h;
}

/** Records keyed by a string, found also from its UTF-8 bytes in a buffer without making a string of them. */
export class ByBytes<T> {
  readonly byKey = new Map<string, T>();
  readonly list: T[] = [];
  private readonly byHash = new Map<number, Array<{ bytes: Buffer; value: T }>>();

  add(key: string, value: T): void {
    this.byKey.set(key, value);
    this.list.push(value);
    const bytes = Buffer.from(key);
    const h = hashBytes(bytes, 0, bytes.length);
    let bucket = this.byHash.get(h);
    if (!bucket) this.byHash.set(h, (bucket = []));
    bucket.push({ bytes, value });
  }

  /** The record whose key is the bytes b[s, e). */
  find(b: Uint8Array, s: number, e: number): T | undefined {
    const bucket = this.byHash.get(hashBytes(b, s, e));
    if (bucket)
      for (const { bytes, value } of bucket)
        if (bytes.length === e - s && sameBytes(b, s, bytes.length, bytes)) return value;
    return undefined;
  }
}

/** Whether b[s, e) holds text (ASCII) exactly. */
export function sameText(b: Uint8Array, s: number, e: number, text: string | undefined): boolean {
  if (text === undefined || text.length !== e - s) return false;
  for (let i = 0; i < text.length; i++) if (b[s + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The text of b[s, e) where a scanner found only ASCII. */
export function latin1(b: Buffer, s: number, e: number): string {
  return b.toString('latin1', s, e);
}
