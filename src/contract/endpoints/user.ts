// The user and its profile (the vendor reference's api-general page, "User"), and Link sessions
// (api-general, "Tink Link > Session"): absent from the spec documents.
import { defineArea } from '../endpoint.js';

export const user = defineArea('user', {
  get: {
    method: 'GET',
    path: '/api/v1/user',
    token: 'user',
    scopes: ['user:read'],
    response: 'json',
    source: 'vendor reference: api-general, Get user',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/user',
    token: 'user',
    scopes: ['user:write'],
    body: 'json',
    fields: ['appId', 'created', 'externalUserId', 'flags', 'id', 'nationalId', 'profile', 'username'],
    response: 'json',
    source: 'vendor reference: api-general, Update user',
  },
  profile: {
    method: 'GET',
    path: '/api/v1/user/profile',
    token: 'user',
    scopes: ['user:read'],
    response: 'json',
    source: 'vendor reference: api-general, Get user profile',
  },
  setProfile: {
    method: 'PUT',
    path: '/api/v1/user/profile',
    token: 'user',
    scopes: ['user:write'],
    body: 'json',
    fields: ['currency', 'locale', 'market', 'notificationSettings', 'periodAdjustedDay', 'periodMode', 'timeZone'],
    response: 'json',
    source: 'vendor reference: api-general, Update user profile',
  },
});

export const linkSession = defineArea('linkSession', {
  create: {
    method: 'POST',
    path: '/link/v1/session',
    token: 'client',
    scopes: ['link-session:write'],
    body: 'json',
    fields: ['externalReference', 'merchantId', 'personalIdentifier', 'sourceAccountNumber', 'user'],
    response: 'json',
    source: 'vendor reference: api-general, Tink Link > Create a session',
  },
});
