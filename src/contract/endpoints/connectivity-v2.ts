// Connectivity v2 consents (Beta in the vendor reference's api-connectivity-v2 page): consents,
// their templates, authorizations and the relayed callback of redirect flows. The writes take an
// Idempotency-Key header. Token kinds and scopes are the reference's "Works with" tables.
import { defineArea } from '../endpoint.js';

const C2 = 'vendor reference: api-connectivity-v2 (Beta)';
const read = ['consents', 'consents:readonly'];

export const consentsV2 = defineArea('consentsV2', {
  create: {
    method: 'POST',
    path: '/connectivity/v2/consents',
    token: 'client',
    scopes: ['consents'],
    body: 'json',
    fields: ['financialService', 'financialServiceParameters', 'providerId', 'userId'],
    response: 'json',
    source: `${C2}, Create a new consent`,
  },
  list: {
    method: 'GET',
    path: '/connectivity/v2/consents',
    token: 'any',
    scopes: read,
    query: ['page_token', 'page_size'],
    response: 'paged',
    source: `${C2}, List consents`,
  },
  get: {
    method: 'GET',
    path: '/connectivity/v2/consents/{consentId}',
    token: 'any',
    scopes: read,
    response: 'json',
    source: `${C2}, Read a consent`,
  },
  revoke: {
    method: 'POST',
    path: '/connectivity/v2/consents/{consentId}:revoke',
    token: 'client',
    scopes: ['consents'],
    response: 'json',
    source: `${C2}, Revoke a consent`,
  },
  template: {
    method: 'GET',
    path: '/connectivity/v2/consent-templates/{providerId}',
    token: 'client',
    scopes: read,
    query: ['type', 'subType'],
    response: 'json',
    source: `${C2}, Get consent template`,
  },
  authorize: {
    method: 'POST',
    path: '/connectivity/v2/consents/{consentId}/authorizations',
    token: 'user',
    scopes: ['consents'],
    body: 'json',
    fields: ['appUri', 'callbackUri'],
    response: 'json',
    source: `${C2}, Start authorization for a consent`,
  },
  authorizations: {
    method: 'GET',
    path: '/connectivity/v2/consents/{consentId}/authorizations',
    token: 'any',
    scopes: read,
    query: ['page_token', 'page_size'],
    response: 'paged',
    source: `${C2}, List authorizations`,
  },
  authorization: {
    method: 'GET',
    path: '/connectivity/v2/consents/{consentId}/authorizations/{authorizationId}',
    token: 'any',
    scopes: read,
    response: 'json',
    source: `${C2}, Read authorization`,
  },
  relayCallback: {
    method: 'POST',
    path: '/connectivity/v2/authorizations:relay-callback',
    token: 'client',
    scopes: ['consents'],
    body: 'json',
    fields: ['parameters', 'state'],
    response: 'empty',
    source: `${C2}, Relayed callback for redirect flows`,
  },
});
