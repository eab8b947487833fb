// Webhooks (aggregation-api.md 4.6 and 6; docs/webhooks.md). A client token registers for all
// users, a user token for that user. /api/v1/authorization/hooks is the same resource under the
// path the service's Postman collection uses.
import { defineArea } from '../endpoint.js';

const hookFields = ['url', 'secret', 'events'];
const hooks = (base: string, source: string) =>
  ({
    list: { method: 'GET', path: base, token: 'any', scopes: ['user:web_hooks'], response: 'json', source },
    create: {
      method: 'POST',
      path: base,
      token: 'any',
      scopes: ['user:web_hooks'],
      body: 'json',
      fields: hookFields,
      response: 'json',
      source,
    },
    delete: {
      method: 'DELETE',
      path: `${base}/{id}`,
      token: 'any',
      scopes: ['user:web_hooks'],
      response: 'empty',
      source,
    },
  }) as const;

export const hooksApi = defineArea('hooks', hooks('/api/v1/hooks', 'spec 4.6, 6'));
export const hooksAuthorization = defineArea(
  'authorizationHooks',
  hooks('/api/v1/authorization/hooks', "the service's Postman collection"),
);
