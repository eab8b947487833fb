// The user and its profile (GET/PATCH /api/v1/user, GET/PUT /api/v1/user/profile) and Link sessions
// (POST /link/v1/session): the vendor reference's api-general page.
import { EP } from '../contract/index.js';
import type { ApiClient } from './client.js';
import type { Item } from './data-v2.js';
import { readObject } from './shape.js';

export const PERIOD_MODES = ['MONTHLY', 'MONTHLY_ADJUSTED'] as const;

export const getUser = (api: ApiClient) => readObject<Item>(api, EP.user.get);
export const updateUser = (api: ApiClient, body: { id?: string; externalUserId?: string; username?: string }) =>
  readObject<Item>(api, EP.user.update, { json: body });
export const getProfile = (api: ApiClient) => readObject<Item>(api, EP.user.profile);
export const setProfile = (api: ApiClient, body: Item) => readObject<Item>(api, EP.user.setProfile, { json: body });

export interface LinkSessionRequest {
  externalReference?: string;
  merchantId?: string;
  personalIdentifier?: string;
  sourceAccountNumber?: string;
  user?: { firstName?: string; lastName?: string };
}

export async function createLinkSession(api: ApiClient, body: LinkSessionRequest): Promise<string> {
  const r = await readObject<{ sessionId?: unknown }>(api, EP.linkSession.create, { json: body });
  if (typeof r?.sessionId !== 'string' || r.sessionId === '')
    throw new (await import('../errors.js')).ServerError('POST /link/v1/session answered without a sessionId');
  return r.sessionId;
}
