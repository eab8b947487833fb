// The sandbox as a test bench (issue 17): state controls, the clock, fixtures, the request log and
// the OpenAPI description. Served by the sandbox only; authenticated like /sandbox/trigger (the
// sandbox's connector token, or a client token of its client), except the public /openapi.json.
import { defineArea } from '../endpoint.js';

const admin = { token: 'connector', sandboxOnly: true } as const;

export const bench = defineArea('bench', {
  setStatus: {
    ...admin,
    method: 'POST',
    path: '/sandbox/credentials/{id}/status',
    body: 'json',
    fields: ['status', 'payload'],
    response: 'json',
    source: 'sandbox: puts existing credentials into a status of the status machine',
  },
  expireConsent: {
    ...admin,
    method: 'POST',
    path: '/sandbox/consents/{id}/expire',
    body: 'json',
    fields: [],
    response: 'json',
    source: "sandbox: moves a consent's session expiry to the past",
  },
  addTransactions: {
    ...admin,
    method: 'POST',
    path: '/sandbox/transactions',
    body: 'json',
    fields: ['userId', 'accountId', 'count', 'from', 'to', 'amountMin', 'amountMax', 'pending', 'seed', 'transactions'],
    response: 'json',
    source: 'sandbox: new transactions on a bank-connected account, as a refresh would bring them',
  },
  clock: {
    ...admin,
    method: 'GET',
    path: '/sandbox/clock',
    response: 'json',
    source: "sandbox: the sandbox's clock",
  },
  setClock: {
    ...admin,
    method: 'POST',
    path: '/sandbox/clock',
    body: 'json',
    fields: ['advanceMs', 'time'],
    response: 'json',
    source: "sandbox: moves the sandbox's clock",
  },
  reset: {
    ...admin,
    method: 'POST',
    path: '/sandbox/reset',
    body: 'json',
    fields: ['keepClients'],
    response: 'json',
    source: 'sandbox: empties the store',
  },
  load: {
    ...admin,
    method: 'POST',
    path: '/sandbox/fixtures',
    body: 'json',
    fields: ['version', 'users', 'connectorUsers', 'webhooks'],
    response: 'json',
    source: 'sandbox: loads a fixtures document (idempotent)',
  },
  logs: {
    ...admin,
    method: 'GET',
    path: '/sandbox/logs',
    query: ['status', 'method', 'path', 'user', 'since', 'after', 'limit'],
    response: 'json',
    source: 'sandbox: the requests it served, newest last',
  },
  openapi: {
    method: 'GET',
    path: '/openapi.json',
    token: 'none',
    response: 'json',
    source: 'sandbox: an OpenAPI 3.1 description of every route it serves',
    sandboxOnly: true,
  },
});
