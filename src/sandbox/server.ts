// startSandbox({port, seed, authDelayMs, clock}) -> {url, close, reset}: an embeddable emulator of
// the service on node:http. One route module per area; state behind the Store interface.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES } from '../contract/index.js';
import { envelope, HttpFailure, keepRequestId, send } from './http.js';
import { ConnectorTokens, Router, splitTarget } from './router.js';
import { IdSource, MemoryStore, SandboxClock } from './store.js';
import { EventBus, type SandboxContext, type SandboxOptions } from './context.js';
import { registerAreas } from './areas.js';
import { FaultInjector } from './faults.js';
import { loadStore, Persister } from './persist.js';
import { hostGuard } from '../contract/host.js';
import { RequestLog } from './bench/request-log.js';

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
  /** Clears all data; the client and connector token stay unless keepClients is false (then new ones). */
  reset(o?: { keepClients?: boolean }): void;
  close(): Promise<void>;
}

/** The sandbox's own client and connector token: new ones, or those of a state file it reloads. */
interface Identity {
  clientId: string;
  clientSecret: string;
  connectorToken: string;
  /** (Re)writes the client and the connector token into the store (at start and after reset). */
  seed(): void;
  /** A new client id, secret and connector token (reset without --keep-clients). */
  rotate(): void;
}

function identity(store: MemoryStore, ids: IdSource, loaded: boolean): Identity {
  const id = { clientId: ids.next(), clientSecret: ids.next(), connectorToken: ids.secret(24) };
  if (loaded) {
    // the restarted sandbox keeps its client and connector token
    const client = [...store.clients.values()].find((c) => c.name === 'sandbox');
    const tokens = store.area('connector-tokens', () => new ConnectorTokens()).list();
    if (client) [id.clientId, id.clientSecret] = [client.id, client.secret];
    if (tokens[0]) id.connectorToken = tokens[0];
  }
  return {
    get clientId() {
      return id.clientId;
    },
    get clientSecret() {
      return id.clientSecret;
    },
    get connectorToken() {
      return id.connectorToken;
    },
    rotate() {
      store.clients.delete(id.clientId);
      [id.clientId, id.clientSecret, id.connectorToken] = [ids.next(), ids.next(), ids.secret(24)];
    },
    seed() {
      store.clients.set(id.clientId, {
        id: id.clientId,
        secret: id.clientSecret,
        name: 'sandbox',
        scopes: new Set(ALL_SCOPES),
        redirectUris: [DEFAULT_REDIRECT_URI],
      });
      store.area('connector-tokens', () => new ConnectorTokens()).add(id.connectorToken);
    },
  };
}

/**
 * Timers that reset() and close() cancel; a timer that throws is logged, and the state saved after it.
 * Each is due at a time of the sandbox clock: when the clock jumps past it (`sandbox clock advance`),
 * it fires at once.
 */
function timerSet(log: (line: string) => void, persister: Persister | undefined, clock: SandboxClock) {
  const timers = new Map<NodeJS.Timeout, { due: number; fire: () => void }>();
  clock.onMove(() => {
    const now = clock.now();
    for (const [t, { due, fire }] of [...timers]) {
      if (due > now) continue;
      clearTimeout(t);
      setImmediate(fire);
    }
  });
  return {
    set(fn: () => void, ms: number): NodeJS.Timeout {
      const fire = () => {
        if (!timers.delete(t)) return;
        persister?.markDirty();
        try {
          fn();
        } catch (err) {
          log(`timer failed: ${(err as Error).stack ?? String(err)}`);
        }
      };
      const t = setTimeout(fire, ms);
      t.unref?.();
      timers.set(t, { due: clock.now() + ms, fire });
      return t;
    },
    clear() {
      for (const t of timers.keys()) clearTimeout(t);
      timers.clear();
    },
  };
}

/**
 * The request handler: latency and faults as asked, then the router; failures as the wire shows them.
 * Synchronous as long as the route's handler is: a request makes a promise only when it waits.
 */
function requestHandler(
  router: Router,
  opts: SandboxOptions,
  persister: Persister | undefined,
  log: (line: string) => void,
  faults: FaultInjector | undefined,
  requests: RequestLog,
) {
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    if (err instanceof HttpFailure) {
      send(res, err.status, err.body, err.contentType, err.headers);
    } else {
      log(`internal error on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
      send(res, 500, { errorMessage: 'internal sandbox error', errorCode: 'internal_error' });
    }
  };
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    // the request log's entry; it also sets the X-Request-ID the service answers with
    const entry = requests.begin(req, res);
    try {
      if (faults && !(req.url ?? '').startsWith('/sandbox/')) {
        if (faults.apply(req, res) === 'dropped') return requests.end(req, res, entry);
      }
      const target = req.url ?? '/';
      let split = splitTarget(target);
      if (!split) {
        let url: URL;
        try {
          url = new URL(target, 'http://sandbox.local');
        } catch {
          throw envelope(400, 'request.invalid', 'malformed request URL');
        }
        split = { path: url.pathname, search: url.search };
      }
      if (persister && req.method !== 'GET' && req.method !== 'HEAD') {
        // --data whose last snapshot failed: a change now would be answered and then lost
        if (persister.failure !== undefined && !split.path.startsWith('/sandbox/'))
          throw envelope(
            507,
            'sandbox.state_not_saved',
            `the sandbox cannot save its state (${persister.failure}); changes are refused so that none is lost`,
          );
        res.once('finish', () => persister.markDirty());
      }
      const pending = router.dispatch(req, res, split.path, split.search);
      if (pending) {
        // it answers later, after other requests have begun
        keepRequestId(res);
        void pending.catch((err: unknown) => fail(req, res, err)).finally(() => requests.end(req, res, entry));
        return;
      }
    } catch (err) {
      fail(req, res, err);
    }
    requests.end(req, res, entry);
  };
  if (!opts.latencyMs) return serve;
  const latency = opts.latencyMs;
  return (req: IncomingMessage, res: ServerResponse): void => void setTimeout(serve, latency, req, res);
}

/** An http server, or with opts.tls an https one with a CA written to opts.tls.dir. */
async function createHttpServer(
  opts: SandboxOptions,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; caFile?: string; pin?: string }> {
  const serverOptions = { requestTimeout: 60_000, headersTimeout: 20_000, maxHeaderSize: 32 * 1024 };
  let server: Server;
  let caFile: string | undefined;
  let pin: string | undefined;
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
  return { server, caFile, pin };
}

/** Listens, and gives the base URL clients use (a wildcard address is reached on 127.0.0.1). */
async function listen(server: Server, opts: SandboxOptions): Promise<{ baseUrl: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const shown = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  return { baseUrl: `${opts.tls ? 'https' : 'http'}://${shown}:${addr.port}`, port: addr.port };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = opts.clock ?? new SandboxClock();
  const ids = new IdSource(opts.seed);
  const store = new MemoryStore(clock, ids);
  const log = opts.log ?? (() => undefined);
  const loaded = opts.dataFile ? loadStore(store, opts.dataFile) : false;
  const id = identity(store, ids, loaded);
  id.seed();
  const persister = opts.dataFile ? new Persister(store, opts.dataFile, 250, log) : undefined;
  // a new state's first snapshot holds its client and connector token: a restart before any other
  // change must not hand out new ones (the printed client secret would stop working)
  if (!loaded) persister?.markDirty();
  const timers = timerSet(log, persister, clock);
  const router = new Router(store);
  const requests = new RequestLog(store, opts.logCapacity, opts.bodies);
  let baseUrl = '';
  const ctx: SandboxContext = {
    handle: (endpoint, handler, o) => router.handle(endpoint, handler, o),
    store,
    clock,
    events: new EventBus(),
    options: { ...opts, authDelayMs: opts.authDelayMs ?? 1500 },
    baseUrl: () => baseUrl,
    linkUrl: () => `${baseUrl}/link`,
    setTimeout: timers.set,
  };
  const reset = (keepClients: boolean) => {
    timers.clear();
    // a kept client keeps every connector token it was given (`sandbox rotate-connector-token`),
    // each with the end it had: the CLI's profile holds the newest, not the first
    const connectorTokens = keepClients ? store.area('connector-tokens', () => new ConnectorTokens()).entries() : [];
    store.reset();
    if (!keepClients) id.rotate();
    id.seed();
    const tokens = store.area('connector-tokens', () => new ConnectorTokens());
    for (const [token, end] of connectorTokens) tokens.add(token, end);
    ctx.events.recent.length = 0;
    requests.clear();
    persister?.markDirty();
    if (!keepClients)
      opts.onIdentity?.({ clientId: id.clientId, clientSecret: id.clientSecret, connectorToken: id.connectorToken });
    return { clientId: id.clientId, clientSecret: id.clientSecret, connectorToken: id.connectorToken };
  };
  ctx.bench = { requests, reset, table: router.table };
  registerAreas(ctx, router);
  const faults = opts.faults && opts.faults.rate > 0 ? new FaultInjector(opts.faults) : undefined;
  const handle = requestHandler(router, opts, persister, log, faults, requests);
  const { server, caFile, pin } = await createHttpServer(
    opts,
    // a request for a foreign Host (DNS rebinding) is answered 421 before any route sees it
    hostGuard(opts.host ?? '127.0.0.1', handle),
  );
  const listening = await listen(server, opts);
  baseUrl = listening.baseUrl;
  return {
    baseUrl,
    linkUrl: `${baseUrl}/link`,
    port: listening.port,
    get clientId() {
      return id.clientId;
    },
    get clientSecret() {
      return id.clientSecret;
    },
    get connectorToken() {
      return id.connectorToken;
    },
    store,
    clock,
    events: ctx.events,
    context: ctx,
    faultCounts: faults?.counts ?? {},
    caFile,
    pin,
    reset: (o) => reset(o?.keepClients ?? true),
    async close() {
      timers.clear();
      persister?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
