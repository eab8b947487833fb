// The vendor's reference on a transaction ingest or update that carries reservedAmount: "the
// accounts balance [is] set to the supplied `balance` minus the supplied reserved amount". The reads
// then show that balance, and take no reservation off it a second time.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { raw, startTestSandbox, type TestEnv } from '../helpers/sandbox.js';
import { call } from './helpers.js';

let env: TestEnv;
const USER = 'resv';
const basic = `Basic ${Buffer.from(`${USER}:${USER}-token`).toString('base64')}`;

beforeAll(async () => {
  env = await startTestSandbox();
  expect(
    (await call(env, 'POST', '/connector/users', { externalId: USER, token: `${USER}-token`, market: 'SE' })).status,
  ).toBe(204);
  const accounts = ['a-ingest', 'a-update', 'a-delete', 'a-hist', 'a-created'].map((externalId, i) => ({
    externalId,
    name: externalId,
    number: `${100 + i}`,
    balance: 7000.0,
    reservedAmount: externalId === 'a-created' ? 2000.0 : undefined,
    type: 'CHECKING',
  }));
  expect((await call(env, 'POST', `/connector/users/${USER}/accounts`, { accounts })).status).toBe(204);
});
afterAll(async () => env.close());

const tx = (externalId: string) => ({
  externalId,
  amount: -98.5,
  date: 1_700_000_000_000,
  description: 'd',
  type: 'DEFAULT',
});

async function balancesOf(externalId: string) {
  const acc = [...env.sandbox.store.accounts.values()].find((a) => a.externalId === externalId)!;
  const get = (path: string) => raw(env.sandbox.baseUrl, 'GET', path, { headers: { authorization: basic } });
  const v2 = await get(`/data/v2/accounts/${acc.id}/balances`);
  expect(v2.status).toBe(200);
  const b = v2.json().balances;
  const text = (x: { amount: { value: { unscaledValue: string; scale: string } } }) =>
    `${x.amount.value.unscaledValue}/${x.amount.value.scale}`;
  return { booked: text(b.bookedBalance), available: text(b.availableBalanceExcludingCredit) };
}

describe('reservedAmount on the transaction endpoints', () => {
  test('ingest: balance 7000.0 with reservedAmount 2000.0 is stored and read as 5000.0, available too (not 3000.0)', async () => {
    const body = {
      type: 'REAL_TIME',
      transactionAccounts: [
        { externalId: 'a-ingest', balance: 7000.0, reservedAmount: 2000.0, transactions: [tx('r-1')] },
      ],
    };
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions`, JSON.stringify(body))).status).toBe(204);
    expect(await balancesOf('a-ingest')).toEqual({ booked: '5000/0', available: '5000/0' });
  });

  test('ingest: exact digits, 0.30 less 0.10 is 0.20', async () => {
    const text = `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a-ingest","balance":0.30,"reservedAmount":0.10,"transactions":[${JSON.stringify(tx('r-2'))}]}]}`;
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions`, text)).status).toBe(204);
    expect(await balancesOf('a-ingest')).toEqual({ booked: '20/2', available: '20/2' });
  });

  test('update of one transaction: balance less reservedAmount', async () => {
    const ingest = {
      type: 'REAL_TIME',
      transactionAccounts: [{ externalId: 'a-update', balance: 1, transactions: [tx('u-1')] }],
    };
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions`, ingest)).status).toBe(204);
    const text = `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a-update","balance":100.50,"reservedAmount":0.25,"transactions":[${JSON.stringify(tx('u-1'))}]}]}`;
    expect((await call(env, 'PUT', `/connector/users/${USER}/transactions/u-1`, text)).status).toBe(204);
    expect(await balancesOf('a-update')).toEqual({ booked: '10025/2', available: '10025/2' });
  });

  test('delete: the same account entry, the same rule', async () => {
    const ingest = {
      type: 'REAL_TIME',
      transactionAccounts: [{ externalId: 'a-delete', balance: 1, transactions: [tx('d-1')] }],
    };
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions`, ingest)).status).toBe(204);
    const del = `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a-delete","balance":50,"reservedAmount":20,"transactions":[{"externalId":"d-1"}]}]}`;
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions/delete`, del)).status).toBe(204);
    expect(await balancesOf('a-delete')).toEqual({ booked: '30/0', available: '30/0' });
  });

  test('HISTORICAL leaves the balance alone', async () => {
    const text = `{"type":"HISTORICAL","transactionAccounts":[{"externalId":"a-hist","balance":1,"reservedAmount":1,"transactions":[${JSON.stringify(tx('h-1'))}]}]}`;
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions`, text)).status).toBe(204);
    expect(await balancesOf('a-hist')).toEqual({ booked: '7000/0', available: '7000/0' });
  });

  test('an account created with a reservedAmount: booked as given, available less it; an ingest then sets the one balance', async () => {
    expect(await balancesOf('a-created')).toEqual({ booked: '7000/0', available: '5000/0' });
    const text = `{"type":"REAL_TIME","transactionAccounts":[{"externalId":"a-created","balance":6000,"transactions":[${JSON.stringify(tx('c-1'))}]}]}`;
    expect((await call(env, 'POST', `/connector/users/${USER}/transactions`, text)).status).toBe(204);
    // the creation's reservation is not taken off the balance the ingest gave
    expect(await balancesOf('a-created')).toEqual({ booked: '6000/0', available: '6000/0' });
  });
});
