// The read areas' one window on the credentials area (issue 3): the record of a set of credentials,
// when that area holds one. Callers fall back to what accounts say for credentials it does not know
// (connector users, data written straight into the store).
import type { MemoryStore } from '../store.js';
import { CredentialsState, type CredRecord } from '../providers/engine.js';

export function credentialsOf(store: MemoryStore, credentialsId: string): CredRecord | undefined {
  return store.area('credentials', () => new CredentialsState()).records.get(credentialsId);
}
