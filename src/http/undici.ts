// undici's dispatchers and request API, without the rest of its index. The index loads fetch,
// WebSocket, EventSource, cookies, caches and mocks, and its cookies module touches
// globalThis.Headers, which loads Node's own bundled copy of undici as well: tens of milliseconds of
// every networked command's start-up, for nothing bankctl calls. The index does the same two steps
// below (the API methods on Dispatcher.prototype, `request` with a dispatcher given).
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import ProxyAgentClass from 'undici/lib/dispatcher/proxy-agent.js';
import type { Dispatcher as DispatcherType } from 'undici';

Object.assign(Dispatcher.prototype, api);

export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;
export const ProxyAgent = ProxyAgentClass;
export type ProxyAgent = InstanceType<typeof ProxyAgentClass>;

/** undici's request(url, options) for an explicit dispatcher (bankctl never uses the global one). */
export function request(
  url: string,
  opts: Omit<DispatcherType.RequestOptions, 'origin' | 'path'> & { dispatcher: DispatcherType },
): Promise<DispatcherType.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return dispatcher.request({ ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
}
