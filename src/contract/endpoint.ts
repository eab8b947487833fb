// What one endpoint is, as data: the shape every entry of src/contract/endpoints/ has, and the one
// path-template compiler both sides use (the client to build a URL, the sandbox to match a request).

/**
 * client: a client token (client_credentials); user: a user token (code exchange, connector token
 * generation, or HTTP Basic for connector-pushed users); any: either; none: no auth;
 * optional: authenticated when a token is given; connector: `Token <connector token>` or a client
 * Bearer token holding the scope.
 */
export type TokenKind = 'client' | 'user' | 'any' | 'none' | 'optional' | 'connector';
export const TOKEN_KINDS: readonly TokenKind[] = ['client', 'user', 'any', 'none', 'optional', 'connector'];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a 2xx answer carries. json: a JSON document; paged: a JSON page with nextPageToken;
 * empty: nothing the client reads (204, or a body it ignores); text: text as sent (a data: URL);
 * pdf: PDF bytes; html: a page for a browser; redirect: a 3xx with a Location.
 */
export type ResponseKind = 'json' | 'paged' | 'empty' | 'text' | 'pdf' | 'html' | 'redirect';

/** How the request body is sent: none, a JSON document, or a form (application/x-www-form-urlencoded). */
export type BodyKind = 'none' | 'json' | 'form';

export interface EndpointSpec {
  method: Method;
  /** The path template: `{name}` is one path segment. */
  path: string;
  token: TokenKind;
  /** The endpoint accepts a token holding any one of these; the client asks for the first. Empty: none needed. */
  scopes?: readonly string[];
  /** Query parameter names. */
  query?: readonly string[];
  body?: BodyKind;
  /** Top-level body (or form) field names. */
  fields?: readonly string[];
  response: ResponseKind;
  /** Where the shape comes from: a spec section, the service's Postman collection, or the vendor reference. */
  source: string;
  /** Served by the sandbox only (its admin routes and hosted pages); the real service lacks it. */
  sandboxOnly?: boolean;
}

export interface Endpoint extends Required<Omit<EndpointSpec, 'sandboxOnly'>> {
  /** `<area>.<name>`, unique over the table. */
  readonly id: string;
  readonly sandboxOnly: boolean;
  /** The path parameters' names, in order. */
  readonly params: readonly string[];
}

/** Declares an area's endpoints; each gets the id `<area>.<key>`. */
export function defineArea<K extends string>(area: string, specs: Record<K, EndpointSpec>): Record<K, Endpoint> {
  const out = {} as Record<K, Endpoint>;
  for (const key of Object.keys(specs) as K[]) {
    const s = specs[key];
    out[key] = Object.freeze({
      id: `${area}.${key}`,
      method: s.method,
      path: s.path,
      token: s.token,
      scopes: Object.freeze([...(s.scopes ?? [])]),
      query: Object.freeze([...(s.query ?? [])]),
      body: s.body ?? 'none',
      fields: Object.freeze([...(s.fields ?? [])]),
      response: s.response,
      source: s.source,
      sandboxOnly: s.sandboxOnly ?? false,
      params: Object.freeze(templateParams(s.path)),
    });
  }
  return out;
}

const PARAM = /\{(\w+)\}/g;

function templateParams(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1]!);
}

/** The template's regex: each `{name}` matches one non-empty segment, the rest literally. */
export function compileTemplate(path: string): RegExp {
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '([^/]+)');
  return new RegExp(`^${pattern}$`);
}

/** How many "/"-separated parts a path has (the bucket a lookup searches). */
export function segmentCount(path: string): number {
  let n = 1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}

/** The concrete path: every `{name}` replaced by its value, percent-encoded. */
export function expandPath(ep: Pick<Endpoint, 'path' | 'id'>, params: Record<string, string> = {}): string {
  return ep.path.replace(PARAM, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${ep.id}: path parameter ${name} is missing`);
    return encodeURIComponent(v);
  });
}
