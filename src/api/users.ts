// Users (spec 4.6).
import type { ApiClient } from './client.js';

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
  return api.data<CreateUserResponse>({ method: 'POST', path: '/api/v1/user/create', json: req });
}

export async function deleteUser(api: ApiClient): Promise<void> {
  await api.call({ method: 'POST', path: '/api/v1/user/delete' });
}
