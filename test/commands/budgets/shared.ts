// Exact, hand-made spending for the budget tests: coffee bought this month and in March 2026.
import { categoryByCode } from '../../../src/sandbox/categories.js';
import type { MemoryStore } from '../../../src/sandbox/store.js';
import { addAccount, addTx } from '../../helpers/store-fixtures.js';

export const COFFEE = 'expenses:food.coffee';

/** An account with coffee bought on these days (YYYY-MM-DD) for these amounts; its id. */
export function coffee(store: MemoryStore, userId: string, buys: Array<[string, string]>): string {
  const a = addAccount(store, userId);
  for (const [day, amount] of buys)
    addTx(store, a, amount, day, { categoryId: categoryByCode(COFFEE)!.id, description: 'Espresso House' });
  return a.id;
}

export const today = (store: MemoryStore) => new Date(store.clock.now()).toISOString().slice(0, 10);
