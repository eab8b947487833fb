// The read areas' one window on the credentials area (issue 3), kept in one place: the record of a
// set of credentials, when that area holds one. Until it does, callers fall back to what accounts say.
import type { MemoryStore } from '../store.js';

export interface CredentialsView {
  id: string;
  userId: string;
  providerName?: string;
  sessionExpiryDate?: number;
}

export function credentialsOf(_store: MemoryStore, _credentialsId: string): CredentialsView | undefined {
  return undefined;
}
