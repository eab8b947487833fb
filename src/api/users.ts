// Users (spec 4.6).
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import { readCreated } from './shape.js';

export interface CreateUserRequest {
  market: string;
  locale?: string;
  external_user_id?: string;
}

export interface CreateUserResponse {
  user_id: string;
  external_user_id?: string;
  [k: string]: unknown;
}

export async function createUser(api: ApiClient, req: CreateUserRequest): Promise<CreateUserResponse> {
  return readCreated<CreateUserResponse>(api, EP.users.create, 'user_id', { json: req });
}

export async function deleteUser(api: ApiClient): Promise<void> {
  await api.call(EP.users.delete);
}

/** Revokes every access and refresh token of a user (a client call). */
export async function revokeAllTokens(
  api: ApiClient,
  user: { userId?: string; externalUserId?: string },
): Promise<void> {
  await api.call(EP.oauth.revokeAll, {
    form: { user_id: user.userId, external_user_id: user.userId ? undefined : user.externalUserId },
  });
}
