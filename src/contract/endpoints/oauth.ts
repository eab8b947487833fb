// OAuth and users (aggregation-api.md 4.6 and 5).
import { defineArea } from '../endpoint.js';

export const oauth = defineArea('oauth', {
  token: {
    method: 'POST',
    path: '/api/v1/oauth/token',
    token: 'none',
    body: 'form',
    fields: ['client_id', 'client_secret', 'grant_type', 'scope', 'code', 'refresh_token'],
    response: 'json',
    source: 'spec 4.6, 5',
  },
  grant: {
    method: 'POST',
    path: '/api/v1/oauth/authorization-grant',
    token: 'client',
    scopes: ['authorization:grant'],
    body: 'form',
    fields: ['user_id', 'external_user_id', 'scope'],
    response: 'json',
    source: 'spec 4.6',
  },
  delegate: {
    method: 'POST',
    path: '/api/v1/oauth/authorization-grant/delegate',
    token: 'client',
    scopes: ['authorization:grant'],
    body: 'form',
    fields: ['user_id', 'external_user_id', 'id_hint', 'actor_client_id', 'scope'],
    response: 'json',
    source: 'spec 4.6',
  },
  // the spec gives no scope; the service's Swagger names authorization:revoke
  revokeAll: {
    method: 'POST',
    path: '/api/v1/oauth/revoke-all',
    token: 'client',
    scopes: ['authorization:revoke'],
    body: 'form',
    fields: ['user_id', 'external_user_id'],
    response: 'empty',
    source: "spec 4.6; scope from the service's Swagger",
  },
});

export const users = defineArea('users', {
  create: {
    method: 'POST',
    path: '/api/v1/user/create',
    token: 'client',
    scopes: ['user:create'],
    body: 'json',
    fields: ['market', 'locale', 'external_user_id'],
    response: 'json',
    source: 'spec 4.6',
  },
  delete: {
    method: 'POST',
    path: '/api/v1/user/delete',
    token: 'user',
    scopes: ['user:delete'],
    response: 'empty',
    source: 'spec 4.6',
  },
});

export const general = defineArea('general', {
  version: { method: 'GET', path: '/version', token: 'none', response: 'json', source: 'connector-api.md 4' },
});
