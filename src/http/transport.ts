// Transport: the keep-alive agents, extra trusted CAs, certificate pinning and proxies
// (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, lower-case too; CONNECT for https).
import { checkServerIdentity, rootCertificates, type PeerCertificate } from 'node:tls';
import { createHash, X509Certificate } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { BlockList, isIP } from 'node:net';
import { Agent, ProxyAgent } from './undici.js';
import { UsageError } from '../errors.js';

export interface TransportOptions {
  /** Extra trusted CA certificates (PEM), added to the system ones. */
  caPems?: string[];
  /** Accepted SPKI SHA-256 pins (base64); any certificate of the chain may match. */
  pins?: string[];
  env?: Record<string, string | undefined>;
}

export const PIN_MISMATCH = 'ERR_BANKCTL_PIN_MISMATCH';

export function normalizePins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((p) => p.trim().replace(/^sha256\//i, ''))
    .filter(Boolean);
}

export function certPin(cert: PeerCertificate): string | undefined {
  if (!cert?.raw) return undefined;
  const spki = new X509Certificate(cert.raw).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

type DetailedCert = PeerCertificate & { issuerCertificate?: DetailedCert };

export function pinChecker(pins: string[]) {
  return (host: string, cert: DetailedCert): Error | undefined => {
    const err = checkServerIdentity(host, cert);
    if (err) return err;
    if (pins.length === 0) return undefined;
    const presented: string[] = [];
    const seen = new Set<DetailedCert>();
    for (let c: DetailedCert | undefined = cert; c && !seen.has(c); c = c.issuerCertificate) {
      seen.add(c);
      const pin = certPin(c);
      if (!pin) continue;
      if (pins.includes(pin)) return undefined;
      presented.push(pin);
    }
    const e = new Error(
      `certificate pin mismatch: the server presented sha256/${presented[0] ?? '?'}${
        presented.length > 1
          ? ` (chain: ${presented
              .slice(1)
              .map((p) => `sha256/${p}`)
              .join(', ')})`
          : ''
      }, expected ${pins.map((p) => `sha256/${p}`).join(' or ')}`,
    );
    (e as NodeJS.ErrnoException).code = PIN_MISMATCH;
    return e;
  };
}

function proxyEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  const v = env[name] ?? env[name.toLowerCase()];
  return v && v.trim() !== '' ? v.trim() : undefined;
}

/** Which variable holds the proxy setting (the upper-case one wins, as proxyEnv reads it). */
function proxyVar(env: Record<string, string | undefined>, name: string): string {
  return env[name] !== undefined ? name : name.toLowerCase();
}

/**
 * A proxy setting as a URL undici takes. "host:port" without a scheme (what many CI images set) is
 * an http proxy, as curl, Go and Python read it; anything that is still no http(s) URL (a socks5://
 * proxy, a typo) is exit 2 naming the variable, never a stack trace or a guess.
 */
export function proxyUrl(value: string, from: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let u: URL | undefined;
  try {
    u = new URL(withScheme);
  } catch {
    u = undefined;
  }
  if (!u || !/^https?:$/.test(u.protocol) || !u.hostname) {
    const shown = u ? ` ("${redactProxy(withScheme)}")` : '';
    throw new UsageError(`${from}${shown} is not an http:// or https:// proxy URL`, {
      hint: u && !/^https?:$/.test(u.protocol) ? `${u.protocol.slice(0, -1)} proxies are not supported` : undefined,
    });
  }
  return withScheme;
}

/** NO_PROXY: comma- or space-separated hosts, domains (".x.com" or "x.com" match subdomains), host:port, IP blocks ("10.0.0.0/8"), "*". */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      if (inCidr(host, entry)) return true;
      continue;
    }
    let [h, p] = entry.startsWith('[')
      ? [entry.slice(1, entry.indexOf(']')), entry.split(']:')[1]]
      : (entry.split(':') as [string, string | undefined]);
    if (entry.split(':').length > 2 && !entry.startsWith('[')) [h, p] = [entry, undefined];
    if (p && p !== port) continue;
    h = h!.replace(/^\*?\./, '.');
    if (host === h.replace(/^\./, '') || (h.startsWith('.') ? host.endsWith(h) : host.endsWith(`.${h}`))) return true;
  }
  return false;
}

/** Whether an IP literal host lies in a CIDR block ("10.0.0.0/8", "fd00::/8"), as curl and Go read NO_PROXY. */
function inCidr(host: string, cidr: string): boolean {
  const [net, bits] = cidr.split('/') as [string, string];
  const family = isIP(net);
  if (family === 0 || family !== isIP(host) || !/^\d+$/.test(bits)) return false;
  const prefix = Number(bits);
  if (prefix > (family === 4 ? 32 : 128)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return list.check(host, type);
}

export class Transport {
  private readonly direct: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();
  private readonly proxyByOrigin = new Map<string, string | undefined>();
  private readonly connect: Record<string, unknown>;

  constructor(private readonly o: TransportOptions = {}) {
    this.connect = {};
    if (o.caPems && o.caPems.length > 0) this.connect.ca = [...rootCertificates, ...o.caPems];
    if (o.pins && o.pins.length > 0) this.connect.checkServerIdentity = pinChecker(o.pins);
    this.direct = new Agent({ keepAliveTimeout: 10_000, connections: 64, connect: this.connect });
  }

  /** The proxy URL that applies to this request, if any (worked out once per origin: env reads are not free). */
  proxyFor(url: URL): string | undefined {
    const origin = `${url.protocol}//${url.host}`;
    if (this.proxyByOrigin.has(origin)) return this.proxyByOrigin.get(origin);
    const proxy = this.proxyFromEnv(url);
    this.proxyByOrigin.set(origin, proxy);
    return proxy;
  }

  private proxyFromEnv(url: URL): string | undefined {
    const env = this.o.env ?? {};
    // the scheme's own variable, else ALL_PROXY; `name` is the one read, for its errors
    let name = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
    let proxy = proxyEnv(env, name);
    if (proxy === undefined) proxy = proxyEnv(env, (name = 'ALL_PROXY'));
    if (!proxy) return undefined;
    if (bypassesProxy(url, proxyEnv(env, 'NO_PROXY'))) return undefined;
    return proxyUrl(proxy, proxyVar(env, name));
  }

  dispatcherFor(url: URL): { dispatcher: Dispatcher; proxy?: string } {
    const proxy = this.proxyFor(url);
    if (!proxy) return { dispatcher: this.direct };
    let agent = this.proxies.get(proxy);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxy, requestTls: this.connect, keepAliveTimeout: 10_000 });
      this.proxies.set(proxy, agent);
    }
    return { dispatcher: agent, proxy };
  }

  async close(force = false): Promise<void> {
    const all: Dispatcher[] = [this.direct, ...this.proxies.values()];
    await Promise.all(all.map((d) => (force ? d.destroy() : d.close()).catch(() => undefined)));
  }
}

export function redactProxy(proxy: string): string {
  try {
    const u = new URL(proxy);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'a proxy';
  }
}
