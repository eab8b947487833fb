// GET /openapi.json: an OpenAPI 3.1 description of every route the sandbox serves, made from the
// same endpoint table its router serves (so it cannot drift): paths, methods, path and query
// parameters, body fields, how each is authenticated and with which scopes, and what a 2xx carries.
import type { Endpoint } from '../../contract/index.js';
import { SANDBOX_VERSION } from '../routes/users.js';

const RESPONSES: Record<Endpoint['response'], (e: Endpoint) => Record<string, unknown>> = {
  json: () => ({
    '200': { description: 'OK', content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
  }),
  paged: () => ({
    '200': {
      description: 'A page; nextPageToken names the next one',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
  }),
  empty: () => ({ '200': { description: 'OK (a body the client ignores)' }, '204': { description: 'No content' } }),
  text: () => ({ '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } }),
  pdf: () => ({
    '200': {
      description: 'A PDF document',
      content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
    },
  }),
  html: () => ({
    '200': { description: 'A page for a browser', content: { 'text/html': { schema: { type: 'string' } } } },
  }),
  redirect: () => ({ '302': { description: 'A redirect', headers: { Location: { schema: { type: 'string' } } } } }),
};

function security(e: Endpoint): Array<Record<string, string[]>> | undefined {
  const scopes = [...e.scopes];
  switch (e.token) {
    case 'none':
      return [];
    case 'optional':
      return [{}, { bearer: scopes }];
    case 'connector':
      return [{ connectorToken: [] }, { bearer: scopes }];
    case 'user':
      return [{ bearer: scopes }, { basic: [] }];
    default:
      return [{ bearer: scopes }];
  }
}

function operation(e: Endpoint): Record<string, unknown> {
  const parameters = [
    ...e.params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...e.query.map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
  ];
  const op: Record<string, unknown> = {
    operationId: e.id,
    summary: e.source,
    tags: [e.id.split('.')[0]],
    'x-token-kind': e.token,
    ...(e.sandboxOnly ? { 'x-sandbox-only': true } : {}),
    security: security(e),
    responses: {
      ...RESPONSES[e.response](e),
      default: {
        description:
          'An error: the error envelope ({errorMessage, errorCode}), problem+json, or text, as the spec gives it',
      },
    },
  };
  if (parameters.length > 0) op.parameters = parameters;
  if (e.body !== 'none') {
    const properties = Object.fromEntries(e.fields.map((f) => [f, {}]));
    const type = e.body === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
    op.requestBody = {
      required: e.method !== 'DELETE',
      content: { [type]: { schema: { type: 'object', properties } } },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of a table of endpoints, served at baseUrl. */
export function openApiDocument(table: readonly Endpoint[], baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of table) (paths[e.path] ??= {})[e.method.toLowerCase()] = operation(e);
  return {
    openapi: '3.1.0',
    info: {
      title: 'bankctl sandbox',
      version: SANDBOX_VERSION.version,
      description:
        'Every route the bankctl sandbox serves: the service endpoints of the spec and the vendor reference it emulates, and its own /sandbox/* and /link/* routes (x-sandbox-only). Generated from the endpoint table its router serves.',
      'x-bankctl-sandbox': true,
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A client or user access token from /api/v1/oauth/token',
        },
        basic: { type: 'http', scheme: 'basic', description: 'A connector-pushed user: external user id and token' },
        connectorToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The connector token: `Authorization: Token <token>`',
        },
      },
    },
    paths,
  };
}
