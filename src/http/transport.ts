// Transport: the keep-alive agents, extra trusted CAs, certificate pinning and proxies
// (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, lower-case too; CONNECT for https).
import { checkServerIdentity, rootCertificates, type PeerCertificate } from 'node:tls';
import { createHash, X509Certificate } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { Agent, ProxyAgent } from './undici.js';

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

/** NO_PROXY: comma- or space-separated hosts, domains (".x.com" or "x.com" match subdomains), host:port, "*". */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
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
    const proxy =
      url.protocol === 'https:'
        ? (proxyEnv(env, 'HTTPS_PROXY') ?? proxyEnv(env, 'ALL_PROXY'))
        : (proxyEnv(env, 'HTTP_PROXY') ?? proxyEnv(env, 'ALL_PROXY'));
    if (!proxy) return undefined;
    if (bypassesProxy(url, proxyEnv(env, 'NO_PROXY'))) return undefined;
    return proxy;
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
