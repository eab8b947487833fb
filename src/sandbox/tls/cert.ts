// A CA and a server certificate for `sandbox start --tls`, generated at start with node:crypto.
// Node can make keys and signatures but not certificates, so the X.509 DER is assembled here.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

// --- minimal DER ---
function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), len(body.length), body]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const ctx = (n: number, body: Buffer, constructed = true) => tlv((constructed ? 0xa0 : 0x80) | n, body);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const octets = (b: Buffer) => tlv(0x04, b);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const bitString = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));

function int(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0 && (b[i + 1]! & 0x80) === 0) i++;
  let body = b.subarray(i);
  if (body[0]! & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
  return tlv(0x02, body);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const stack = [p & 0x7f];
    for (let v = p >> 7; v > 0; v >>= 7) stack.unshift((v & 0x7f) | 0x80);
    out.push(...stack);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(d: Date): Buffer {
  const y = d.getUTCFullYear();
  const p = (n: number) => String(n).padStart(2, '0');
  const s = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return y >= 2050 ? tlv(0x18, Buffer.from(`${y}${s}`)) : tlv(0x17, Buffer.from(`${String(y).slice(2)}${s}`));
}

const name = (cn: string) =>
  seq(set(seq(oid('2.5.4.3'), utf8(cn))), set(seq(oid('2.5.4.10'), utf8('bankctl sandbox'))));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));
const ext = (id: string, critical: boolean, value: Buffer) =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

function keyId(spki: Buffer): Buffer {
  return createHash('sha1').update(spki).digest();
}

export interface Issued {
  certPem: string;
  keyPem: string;
  key: KeyObject;
  spki: Buffer;
}

function issue(o: {
  subject: string;
  issuer: string;
  spki: Buffer;
  issuerSpki: Buffer;
  signer: KeyObject;
  ca: boolean;
  sans?: string[];
  days: number;
  now: Date;
}): string {
  const notBefore = new Date(o.now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(o.now.getTime() + o.days * 24 * 60 * 60 * 1000);
  const extensions = [
    ext('2.5.29.19', true, o.ca ? seq(bool(true)) : seq()),
    // keyUsage: CA keyCertSign|cRLSign (bits 5,6); server digitalSignature (bit 0)
    ext('2.5.29.15', true, o.ca ? tlv(0x03, Buffer.from([1, 0x06])) : tlv(0x03, Buffer.from([7, 0x80]))),
    ext('2.5.29.14', false, octets(keyId(o.spki))),
    ext('2.5.29.35', false, seq(ctx(0, keyId(o.issuerSpki), false))),
  ];
  if (!o.ca) {
    extensions.push(ext('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))));
    const names = (o.sans ?? []).map((s) => {
      if (isIPv4(s)) return ctx(7, Buffer.from(s.split('.').map(Number)), false);
      if (isIPv6(s)) return ctx(7, ipv6Bytes(s), false);
      return ctx(2, Buffer.from(s, 'ascii'), false);
    });
    extensions.push(ext('2.5.29.17', false, seq(...names)));
  }
  const tbs = seq(
    ctx(0, int(Buffer.from([2]))),
    int(randomBytes(16)),
    ECDSA_SHA256,
    name(o.issuer),
    seq(time(notBefore), time(notAfter)),
    name(o.subject),
    o.spki,
    ctx(3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, o.signer);
  const der = seq(tbs, ECDSA_SHA256, bitString(signature));
  return toPem(der, 'CERTIFICATE');
}

function ipv6Bytes(s: string): Buffer {
  const [head, tail] = s.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.from(groups.flatMap((g) => [(parseInt(g, 16) >> 8) & 0xff, parseInt(g, 16) & 0xff]));
}

export function toPem(der: Buffer, label: string): string {
  const b64 = der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function newKey(): { key: KeyObject; spki: Buffer; keyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    key: privateKey,
    spki: publicKey.export({ type: 'spki', format: 'der' }),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** The pin of a certificate: base64 SHA-256 of its SubjectPublicKeyInfo. */
export function spkiPin(spki: Buffer): string {
  return createHash('sha256').update(spki).digest('base64');
}

export interface SandboxTls {
  ca: Issued;
  server: Issued;
  /** The server certificate's SPKI pin. */
  pin: string;
}

export function generateSandboxTls(o: { hosts?: string[]; now?: Date } = {}): SandboxTls {
  const now = o.now ?? new Date();
  const caKey = newKey();
  const caPem = issue({
    subject: 'bankctl sandbox CA',
    issuer: 'bankctl sandbox CA',
    spki: caKey.spki,
    issuerSpki: caKey.spki,
    signer: caKey.key,
    ca: true,
    days: 30,
    now,
  });
  const srvKey = newKey();
  const hosts = o.hosts ?? ['localhost', '127.0.0.1', '::1'];
  const srvPem = issue({
    subject: hosts[0]!,
    issuer: 'bankctl sandbox CA',
    spki: srvKey.spki,
    issuerSpki: caKey.spki,
    signer: caKey.key,
    ca: false,
    sans: hosts,
    days: 30,
    now,
  });
  return {
    ca: { certPem: caPem, keyPem: caKey.keyPem, key: caKey.key, spki: caKey.spki },
    server: { certPem: srvPem, keyPem: srvKey.keyPem, key: srvKey.key, spki: srvKey.spki },
    pin: spkiPin(srvKey.spki),
  };
}
