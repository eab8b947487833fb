// Events v2 (the vendor reference's "Events v2 > Webhook"): webhook endpoints registered with a client
// token holding `webhook-endpoints`. The service generates the secret and returns it only on
// creation; deliveries are signed (X-Tink-Signature, see ../webhook-signature.ts). The reference
// writes the update path as /events/v2/webhook-endpoints/{webhookEndpoint.id}: the same single
// segment, named {id} here. The reference has no GET of one endpoint: `webhooks endpoints get`
// finds it in the list.
import { defineArea } from '../endpoint.js';

const base = '/events/v2/webhook-endpoints';
const source = 'vendor reference: Events v2 > Webhook';

export const webhookEndpoints = defineArea('webhookEndpoints', {
  list: {
    method: 'GET',
    path: base,
    token: 'client',
    scopes: ['webhook-endpoints'],
    query: ['pageSize', 'pageToken'],
    response: 'json',
    source: `${source}: List Webhook Endpoints`,
  },
  create: {
    method: 'POST',
    path: base,
    token: 'client',
    scopes: ['webhook-endpoints'],
    body: 'json',
    fields: ['url', 'enabledEvents', 'description', 'disabled'],
    response: 'json',
    source: `${source}: Create Webhook Endpoint`,
  },
  update: {
    method: 'PATCH',
    path: `${base}/{id}`,
    token: 'client',
    scopes: ['webhook-endpoints'],
    body: 'json',
    fields: ['webhookEndpoint'],
    response: 'json',
    source: `${source}: Update Webhook Endpoint`,
  },
  delete: {
    method: 'DELETE',
    path: `${base}/{id}`,
    token: 'client',
    scopes: ['webhook-endpoints'],
    response: 'empty',
    source: `${source}: Delete Webhook Endpoint`,
  },
});
