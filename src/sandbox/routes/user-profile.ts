// The user and its profile (the vendor reference's api-general page): GET/PATCH /api/v1/user and
// GET/PUT /api/v1/user/profile; and Link sessions (POST /link/v1/session), which the hosted flow
// takes as `session_id` once, within ten minutes, for the app that made them.
import { EP } from '../../contract/index.js';
import { isLocale, marketCurrency } from '../../contract/markets.js';
import { NOTIFICATION_SETTINGS } from '../../contract/item-fields.js';
import type { SandboxContext } from '../context.js';
import type { MemoryStore, UserRecord } from '../store.js';
import { asObject, badRequest, conflict } from '../http.js';

const ZONE: Record<string, string> = {
  SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo',
  DK: 'Europe/Copenhagen',
  FI: 'Europe/Helsinki',
  GB: 'Europe/London',
  UK: 'Europe/London',
  DE: 'Europe/Berlin',
  FR: 'Europe/Paris',
  ES: 'Europe/Madrid',
  IT: 'Europe/Rome',
  NL: 'Europe/Amsterdam',
  US: 'America/New_York',
};
export const PERIOD_MODES = ['MONTHLY', 'MONTHLY_ADJUSTED'];

interface Profile {
  currency: string;
  locale: string;
  market: string;
  notificationSettings: Record<string, boolean>;
  periodAdjustedDay: number;
  periodMode: string;
  timeZone: string;
}

interface UserExtra {
  username?: string;
  profile: Profile;
}

class UserProfiles {
  byUser = new Map<string, UserExtra>();
}

const profilesOf = (store: MemoryStore) => store.area('userProfiles', () => new UserProfiles()).byUser;

function extraOf(store: MemoryStore, u: UserRecord): UserExtra {
  let e = profilesOf(store).get(u.id);
  if (!e) {
    e = {
      profile: {
        currency: marketCurrency(u.market),
        locale: u.locale,
        market: u.market,
        notificationSettings: Object.fromEntries(NOTIFICATION_SETTINGS.map((k) => [k, false])),
        periodAdjustedDay: 25,
        periodMode: 'MONTHLY_ADJUSTED',
        timeZone: ZONE[u.market] ?? 'UTC',
      },
    };
    profilesOf(store).set(u.id, e);
  }
  return e;
}

function userView(store: MemoryStore, u: UserRecord): Record<string, unknown> {
  const e = extraOf(store, u);
  return {
    appId: u.clientId ?? null,
    created: new Date(u.created).toISOString(),
    externalUserId: u.externalUserId ?? null,
    flags: [],
    id: u.id,
    nationalId: null,
    profile: e.profile,
    username: e.username ?? null,
  };
}

/** PATCH /api/v1/user: externalUserId and username change; the rest must be absent or unchanged. */
function patchUser(store: MemoryStore, u: UserRecord, body: Record<string, unknown>): void {
  const current = userView(store, u);
  for (const [k, v] of Object.entries(body)) {
    if (k === 'externalUserId' || k === 'username') continue;
    if (k === 'id' && v !== u.id) throw badRequest('id does not match the user of the token', { field: 'id' });
    if (k in current && JSON.stringify(current[k]) === JSON.stringify(v)) continue;
    throw badRequest(`property "${k.slice(0, 60)}" cannot be updated (updatable: externalUserId, username)`, {
      field: k.slice(0, 60),
    });
  }
  const ext = body.externalUserId;
  if (ext !== undefined) {
    if (typeof ext !== 'string' || ext === '' || ext.length > 256)
      throw badRequest('externalUserId must be a non-empty string of at most 256 characters', {
        field: 'externalUserId',
      });
    const other = store.userByExternalId(ext);
    if (other && other.id !== u.id) throw conflict(`a user with external id "${ext.slice(0, 80)}" already exists`);
    u.externalUserId = ext;
    store.addUser(u);
  }
  if (body.username !== undefined) {
    if (typeof body.username !== 'string' || body.username.length > 256)
      throw badRequest('username must be a string of at most 256 characters', { field: 'username' });
    extraOf(store, u).username = body.username;
  }
}

/** PUT /api/v1/user/profile: locale, notificationSettings, periodAdjustedDay, periodMode, timeZone. */
function putProfile(store: MemoryStore, u: UserRecord, body: Record<string, unknown>): void {
  const p = extraOf(store, u).profile;
  const next: Profile = { ...p, notificationSettings: { ...p.notificationSettings } };
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'currency':
      case 'market':
        if (v !== p[k]) throw badRequest(`${k} is read-only (it is ${p[k]})`, { field: k });
        break;
      case 'locale':
        if (typeof v !== 'string' || !isLocale(v))
          throw badRequest(`unsupported locale "${String(v).slice(0, 20)}"`, { field: k });
        next.locale = v;
        break;
      case 'periodMode':
        if (typeof v !== 'string' || !PERIOD_MODES.includes(v))
          throw badRequest(`periodMode must be one of ${PERIOD_MODES.join(', ')}`, { field: k });
        next.periodMode = v;
        break;
      case 'periodAdjustedDay':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 31)
          throw badRequest('periodAdjustedDay must be a whole number from 1 to 31', { field: k });
        next.periodAdjustedDay = v;
        break;
      case 'timeZone':
        if (typeof v !== 'string' || !validZone(v))
          throw badRequest(`unknown time zone "${String(v).slice(0, 40)}"`, { field: k });
        next.timeZone = v;
        break;
      case 'notificationSettings': {
        const o = asObject(v, 'notificationSettings');
        for (const [n, b] of Object.entries(o)) {
          if (!NOTIFICATION_SETTINGS.includes(n))
            throw badRequest(`unknown notification setting "${n.slice(0, 40)}"`, {
              field: `notificationSettings.${n.slice(0, 40)}`,
            });
          if (typeof b !== 'boolean')
            throw badRequest(`notificationSettings.${n} must be true or false`, { field: `notificationSettings.${n}` });
          next.notificationSettings[n] = b;
        }
        break;
      }
      default:
        throw badRequest(`unknown profile property "${k.slice(0, 60)}"`, { field: k.slice(0, 60) });
    }
  }
  extraOf(store, u).profile = next;
  u.locale = next.locale;
}

function validZone(z: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
    return z.length <= 64;
  } catch {
    return false;
  }
}

// ---- Link sessions ------------------------------------------------------------------------------

export interface ApiLinkSession {
  id: string;
  clientId: string;
  created: number;
  used: boolean;
  externalReference?: string;
  merchantId?: string;
  personalIdentifier?: string;
  sourceAccountNumber?: string;
  user?: { firstName?: string; lastName?: string };
}

/** Ten minutes, one use (the reference). */
export const API_SESSION_TTL_MS = 10 * 60 * 1000;

export const apiSessionsOf = (store: MemoryStore) =>
  store.area('linkApiSessions', () => new Map<string, ApiLinkSession>());

/** The session a hosted flow names, taken (used once), or why it cannot be. */
export function takeApiSession(store: MemoryStore, id: string, clientId: string): ApiLinkSession | string {
  const s = apiSessionsOf(store).get(id);
  if (!s || s.clientId !== clientId) return 'session_id is unknown';
  if (s.created + API_SESSION_TTL_MS <= store.clock.now()) return 'session_id has expired (sessions last 10 minutes)';
  if (s.used) return 'session_id has already been used (a session is for one flow)';
  s.used = true;
  return s;
}

const SESSION_FIELDS = ['externalReference', 'merchantId', 'personalIdentifier', 'sourceAccountNumber'] as const;

export function registerUserProfile(ctx: SandboxContext): void {
  const { store, handle } = ctx;
  store.onUserDeleted((id) => profilesOf(store).delete(id));

  handle(EP.user.get, (req, res) => res.json(200, userView(store, req.user())));
  handle(
    EP.user.update,
    async (req, res) => {
      const u = req.user();
      patchUser(store, u, asObject(await req.json()));
      res.json(200, userView(store, u));
    },
    { maxBody: 16 * 1024 },
  );
  handle(EP.user.profile, (req, res) => res.json(200, extraOf(store, req.user()).profile));
  handle(
    EP.user.setProfile,
    async (req, res) => {
      const u = req.user();
      putProfile(store, u, asObject(await req.json()));
      res.json(200, extraOf(store, u).profile);
    },
    { maxBody: 16 * 1024 },
  );

  handle(
    EP.linkSession.create,
    async (req, res) => {
      const body = asObject((await req.json({ optional: true })) ?? {});
      const s: ApiLinkSession = {
        id: store.ids.secret(32),
        clientId: req.auth!.clientId!,
        created: store.clock.now(),
        used: false,
      };
      for (const k of Object.keys(body))
        if (!(SESSION_FIELDS as readonly string[]).includes(k) && k !== 'user')
          throw badRequest(`unknown session property "${k.slice(0, 60)}"`, { field: k.slice(0, 60) });
      for (const k of SESSION_FIELDS) {
        const v = body[k];
        if (v === undefined) continue;
        if (typeof v !== 'string' || v.length > 256)
          throw badRequest(`${k} must be a string of at most 256 characters`, { field: k });
        s[k] = v;
      }
      if (body.user !== undefined) {
        const u = asObject(body.user, 'user');
        for (const k of Object.keys(u))
          if ((k !== 'firstName' && k !== 'lastName') || typeof u[k] !== 'string')
            throw badRequest(`user.${k.slice(0, 40)} is not a session property (firstName, lastName)`, {
              field: `user.${k.slice(0, 40)}`,
            });
        s.user = { firstName: u.firstName as string | undefined, lastName: u.lastName as string | undefined };
      }
      apiSessionsOf(store).set(s.id, s);
      res.json(200, { sessionId: s.id });
    },
    { maxBody: 16 * 1024 },
  );
}
