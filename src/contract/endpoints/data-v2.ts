// Data v2 beyond accounts and transactions (the vendor reference's api-data-v2 page): one account,
// its balances and parties, identities, investment and loan accounts, holdings, transaction reports.
// Token kinds and scopes are the reference's "Works with" tables.
import { defineArea } from '../endpoint.js';

const D2 = 'vendor reference: api-data-v2';

export const dataV2 = defineArea('dataV2', {
  account: {
    method: 'GET',
    path: '/data/v2/accounts/{id}',
    token: 'user',
    scopes: ['accounts:read'],
    response: 'json',
    source: `${D2}, Get Account`,
  },
  accountBalances: {
    method: 'GET',
    path: '/data/v2/accounts/{id}/balances',
    token: 'any',
    scopes: ['accounts.balances:readonly', 'accounts:read'],
    response: 'json',
    source: `${D2}, Get Account Balances (Beta)`,
  },
  accountParties: {
    method: 'GET',
    path: '/data/v2/accounts/{id}/parties',
    token: 'user',
    scopes: ['accounts.parties:readonly', 'accounts:read'],
    response: 'json',
    source: `${D2}, Get Account Parties`,
  },
  identities: {
    method: 'GET',
    path: '/data/v2/identities',
    token: 'user',
    scopes: ['identities:readonly'],
    response: 'json',
    source: `${D2}, List Identities (Beta)`,
  },
  investmentAccounts: {
    method: 'GET',
    path: '/data/v2/investment-accounts',
    token: 'user',
    scopes: ['investment-accounts:readonly'],
    response: 'json',
    source: `${D2}, List Investment Accounts`,
  },
  investmentAccount: {
    method: 'GET',
    path: '/data/v2/investment-accounts/{id}',
    token: 'user',
    scopes: ['investment-accounts:readonly'],
    response: 'json',
    source: `${D2}, Get Investment Account`,
  },
  holdings: {
    method: 'GET',
    path: '/data/v2/investment-accounts/{id}/holdings',
    token: 'user',
    scopes: ['investment-accounts:readonly'],
    query: ['pageSize', 'pageToken'],
    response: 'paged',
    source: `${D2}, List Holdings`,
  },
  loanAccounts: {
    method: 'GET',
    path: '/data/v2/loan-accounts',
    token: 'user',
    scopes: ['loan-accounts:readonly'],
    response: 'json',
    source: `${D2}, List Loan Accounts`,
  },
  loanAccount: {
    method: 'GET',
    path: '/data/v2/loan-accounts/{id}',
    token: 'user',
    scopes: ['loan-accounts:readonly'],
    response: 'json',
    source: `${D2}, Get Loan Account`,
  },
  transactionReport: {
    method: 'GET',
    path: '/data/v2/transaction-reports/{id}',
    token: 'client',
    scopes: ['transaction-reports:readonly'],
    response: 'json',
    source: `${D2}, Get Transaction Report`,
  },
});
