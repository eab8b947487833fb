// startSandbox({port, seed, authDelayMs, clock}) -> {url, close, reset}: an embeddable emulator of
// the service on node:http. One route module per area; state behind the Store interface.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES } from '../api/scopes.js';
import { envelope, HttpFailure, send } from './http.js';
import { ConnectorTokens, Router } from './router.js';
import { IdSource, MemoryStore, SandboxClock } from './store.js';
import { EventBus, type SandboxContext, type SandboxOptions } from './context.js';
import { AREAS } from './areas.js';
import { FaultInjector } from './faults.js';
import { loadStore, Persister } from './persist.js';
import { hostGuard } from '../contract/host.js';

export const DEFAULT_REDIRECT_URI = 'http://localhost:3000/callback';

export interface Sandbox {
  baseUrl: string;
  linkUrl: string;
  port: number;
  clientId: string;
  clientSecret: string;
  connectorToken: string;
  store: MemoryStore;
  clock: SandboxClock;
  events: EventBus;
  context: SandboxContext;
  /** With tls: the CA certificate file to trust and the server's SPKI pin. */
  caFile?: string;
  pin?: string;
  /** How many faults of each kind were injected. */
  faultCounts: Record<string, number>;
  /** Clears all data; the client and connector token stay. */
  reset(): void;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = opts.clock ?? new SandboxClock();
  const ids = new IdSource(opts.seed);
  const store = new MemoryStore(clock, ids);
  const router = new Router(store);
  const events = new EventBus();
  const timers = new Set<NodeJS.Timeout>();
  const log = opts.log ?? (() => undefined);

  let clientId = ids.next();
  let clientSecret = ids.next();
  let connectorToken = ids.secret(24);
  const loaded = opts.dataFile ? loadStore(store, opts.dataFile) : false;
  if (loaded) {
    // the restarted sandbox keeps its client and connector token
    const client = [...store.clients.values()].find((c) => c.name === 'sandbox');
    const tokens = store.area('connector-tokens', () => new ConnectorTokens()).list();
    if (client) [clientId, clientSecret] = [client.id, client.secret];
    if (tokens[0]) connectorToken = tokens[0];
  }
  const seedIdentity = () => {
    store.clients.set(clientId, {
      id: clientId,
      secret: clientSecret,
      name: 'sandbox',
      scopes: new Set(ALL_SCOPES),
      redirectUris: [DEFAULT_REDIRECT_URI],
    });
    store.area('connector-tokens', () => new ConnectorTokens()).add(connectorToken);
  };
  seedIdentity();
  const persister = opts.dataFile ? new Persister(store, opts.dataFile, 250, log) : undefined;

  let baseUrl = '';
  const ctx: SandboxContext = {
    router,
    store,
    clock,
    events,
    options: { ...opts, authDelayMs: opts.authDelayMs ?? 1500 },
    baseUrl: () => baseUrl,
    linkUrl: () => `${baseUrl}/link`,
    setTimeout(fn, ms) {
      const t = setTimeout(() => {
        timers.delete(t);
        persister?.markDirty();
        try {
          fn();
        } catch (err) {
          log(`timer failed: ${(err as Error).stack ?? String(err)}`);
        }
      }, ms);
      t.unref?.();
      timers.add(t);
      return t;
    },
  };
  for (const register of AREAS) register(ctx);

  const serverOptions = { requestTimeout: 60_000, headersTimeout: 20_000, maxHeaderSize: 32 * 1024 };
  const onRequest = hostGuard(
    opts.host ?? '127.0.0.1',
    (req: IncomingMessage, res: ServerResponse) => void handle(req, res),
  );
  let caFile: string | undefined;
  let pin: string | undefined;
  let server: Server;
  if (opts.tls) {
    const { generateSandboxTls } = await import('./tls/cert.js');
    const tls = generateSandboxTls();
    mkdirSync(opts.tls.dir, { recursive: true, mode: 0o700 });
    caFile = join(opts.tls.dir, 'sandbox-ca.pem');
    writeFileSync(caFile, tls.ca.certPem, { mode: 0o644 });
    pin = tls.pin;
    server = createHttpsServer(
      { ...serverOptions, key: tls.server.keyPem, cert: tls.server.certPem + tls.ca.certPem },
      onRequest,
    ) as unknown as Server;
    server.on('tlsClientError', (_err, socket) => socket.destroy());
  } else {
    server = createServer(serverOptions, onRequest);
  }
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  const faults = opts.faults && opts.faults.rate > 0 ? new FaultInjector(opts.faults) : undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
      if (faults && !(req.url ?? '').startsWith('/sandbox/')) {
        if (faults.apply(req, res) === 'dropped') return;
      }
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://sandbox.local');
      } catch {
        throw envelope(400, 'request.invalid', 'malformed request URL');
      }
      if (persister && req.method !== 'GET' && req.method !== 'HEAD') res.once('finish', () => persister.markDirty());
      await router.handle(req, res, url);
    } catch (err) {
      if (err instanceof HttpFailure) {
        send(res, err.status, err.body, err.contentType, err.headers);
      } else {
        log(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
        send(res, 500, { errorMessage: 'internal sandbox error', errorCode: 'internal_error' });
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  baseUrl = `${opts.tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${addr.port}`;

  const clearTimers = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
  };
  return {
    baseUrl,
    linkUrl: `${baseUrl}/link`,
    port: addr.port,
    clientId,
    clientSecret,
    connectorToken,
    store,
    clock,
    events,
    context: ctx,
    faultCounts: faults?.counts ?? {},
    caFile,
    pin,
    reset() {
      clearTimers();
      store.reset();
      seedIdentity();
      persister?.markDirty();
    },
    async close() {
      clearTimers();
      persister?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
