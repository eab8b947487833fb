// The local servers (the sandbox, `webhooks listen`) answer only requests addressed to them by a
// loopback name, an IP address, or the name they were started on. A DNS-rebinding page makes a
// browser send requests for its own name (evil.example) to 127.0.0.1; the Host header still says
// evil.example, so such requests are refused before any route sees them. An IP literal in Host is
// safe: a browser sends one only when it connected to that address itself, without DNS.
import { isIP } from 'node:net';

/** The host name of a Host header value, without port, brackets or a trailing dot, lower-cased. */
export function hostName(header: string): string {
  let h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end > 0 ? h.slice(1, end) : h;
  } else if (h.split(':').length === 2) h = h.slice(0, h.indexOf(':'));
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/**
 * Whether a request with this Host header may be answered by a server started on `boundHost`
 * (the address or name given to listen()). A request without Host (HTTP/1.0) is not a browser's.
 */
export function isAllowedHost(header: string | undefined, boundHost: string): boolean {
  if (header === undefined) return true;
  const name = hostName(header);
  if (name === '') return false;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) !== 0) return true;
  return name === hostName(boundHost);
}

interface Req {
  headers: { host?: string };
}
interface Res {
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(body: string): unknown;
}

/** Wraps a request listener: a request for a foreign Host is answered 421 and goes no further. */
export function hostGuard<Q extends Req, S extends Res>(boundHost: string, next: (req: Q, res: S) => void) {
  // the answer depends on the header only: the last allowed value is remembered (a client sends the
  // same Host on every request)
  let allowed: string | undefined;
  return (req: Q, res: S): void => {
    const host = req.headers.host;
    if (host === undefined || host === allowed) return next(req, res);
    if (isAllowedHost(host, boundHost)) {
      allowed = host;
      return next(req, res);
    }
    const body = 'Misdirected Request: this local server answers only loopback names and IP addresses\n';
    res.writeHead(421, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  };
}
