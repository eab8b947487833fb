// Webhook registration, both sides, and the admin trigger:
// - connector: GET|POST /connector/webhooks, DELETE /connector/webhooks/{id} (connector-api.md 4):
//   a registration concerns all users, old and new; POST answers 204 (plus a Location header naming
//   the new id, so that a client can delete what it created).
// - API: GET|POST /api/v1/hooks, DELETE /api/v1/hooks/{id} (aggregation-api.md 4.6 "POST /hooks"),
//   also served at the Swagger's /api/v1/authorization/hooks; scope user:web_hooks. Made with a client
//   token it concerns all users; made with a user token, that user only. A client token lists and
//   deletes every registration of its client; a user token only the user's own.
// - POST /sandbox/trigger {event, userId?, credentialsId?, status?}: emits a realistic event (v1 or
//   Events v2; the v2 endpoints, the delivery log and resend are in ./events-v2.ts).
import { EP, expandPath } from '../../contract/index.js';
import type { EventName, SandboxContext } from '../context.js';
import { EVENT_NAMES } from '../context.js';
import { asObject, badRequest, notFound, optString } from '../http.js';
import type { Req } from '../router.js';
import type { UserRecord } from '../store.js';
import { validateRegistration, webhookDelivery, type WebhookRecord } from '../webhooks.js';
import { apiTransaction } from '../connector/state.js';
import { isV2DataEvent, V2_DATA_EVENTS, type V2DataEvent } from '../../contract/webhook-signature.js';
import type { WebhookEvent } from '../../contract/wire.js';
import { registerEventsV2, triggerV2 } from './events-v2.js';
import { CredentialsState } from '../providers/engine.js';
import { STATUS_EVENTS_TEXT, TRIGGER_STATUSES } from '../../contract/trigger-statuses.js';

function connectorView(h: WebhookRecord) {
  return { id: h.id, url: h.url, secret: h.secret, events: h.events };
}

function apiView(h: WebhookRecord) {
  return {
    id: h.id,
    url: h.url,
    secret: h.secret,
    events: h.events,
    clientId: h.clientId,
    ...(h.userId ? { userId: h.userId } : {}),
    global: !h.userId,
  };
}

export function registerWebhooks(ctx: SandboxContext): void {
  const { handle } = ctx;
  const delivery = webhookDelivery(ctx, ctx.options.webhooks);
  const hooks = () => delivery.state().hooks;

  // connector side
  handle(EP.connector.listWebhooks, (_req, res) => {
    res.json(200, [...hooks().values()].filter((h) => h.source === 'connector').map(connectorView));
  });
  handle(EP.connector.createWebhook, async (req, res) => {
    const body = validateRegistration(asObject(await req.json(), 'the webhook'));
    const rec = delivery.add({ ...body, source: 'connector', clientId: req.auth?.clientId });
    res.send(204, '', 'application/json', {
      location: expandPath(EP.connector.deleteWebhook, { id: rec.id }),
      'x-webhook-id': rec.id,
    });
  });
  handle(EP.connector.deleteWebhook, (req, res) => {
    const h = hooks().get(req.params.id!);
    if (!h || h.source !== 'connector') throw notFound('webhook not found');
    delivery.remove(h.id);
    res.empty(204);
  });

  // API side
  const visible = (req: Req, h: WebhookRecord) =>
    h.source === 'api' &&
    (req.auth?.kind === 'user' ? h.userId === req.auth.userId : h.clientId === req.auth?.clientId);
  for (const hooksArea of [EP.hooks, EP.authorizationHooks]) {
    handle(hooksArea.list, (req, res) => {
      res.json(200, { webHooks: [...hooks().values()].filter((h) => visible(req, h)).map(apiView) });
    });
    handle(hooksArea.create, async (req, res) => {
      const body = validateRegistration(asObject(await req.json(), 'the webhook'));
      const userId = req.auth?.kind === 'user' ? req.user().id : undefined;
      const rec = delivery.add({ ...body, source: 'api', clientId: req.auth?.clientId, userId });
      res.json(200, apiView(rec));
    });
    handle(hooksArea.delete, (req, res) => {
      const h = hooks().get(req.params.id!);
      if (!h || !visible(req, h)) throw notFound('webhook not found');
      delivery.remove(h.id);
      res.empty(204);
    });
  }

  // admin: emit an event, and what delivery did
  handle(EP.sandbox.trigger, async (req, res) => {
    const body = asObject(await req.json(), 'the trigger');
    const event = optString(body, 'event');
    const v1 = event !== undefined && (EVENT_NAMES as string[]).includes(event);
    // the Events v2 events the sandbox emits (it accepts subscriptions to the others, never sends them)
    if (!event || (!v1 && !isV2DataEvent(event)))
      throw badRequest(`event must be one of ${[...EVENT_NAMES, ...V2_DATA_EVENTS].join(', ')}`, { field: 'event' });
    const user = pickUser(ctx, short(optString(body, 'userId'), 'userId'));
    const status = short(optString(body, 'status'), 'status');
    const credentialsId = short(optString(body, 'credentialsId'), 'credentialsId');
    if (status !== undefined) {
      // one list (src/contract/trigger-statuses.ts) for the check and both messages: the v1 message
      // left refresh:finished out, the v2 one the v1 events
      const allowed = TRIGGER_STATUSES[event];
      if (!allowed) throw badRequest(`status applies to ${STATUS_EVENTS_TEXT} only`, { field: 'status' });
      if (!allowed.includes(status))
        throw badRequest(`status of ${event} must be one of ${allowed.join(', ')}`, { field: 'status' });
    }
    // an id the user has no credentials of was put in the event as given (exit 0): a typo, or the
    // credentials of another user, made an event about credentials that do not exist
    if (credentialsId !== undefined && !credentialsOf(ctx, user).has(credentialsId))
      throw notFound(`credentials ${credentialsId} not found for user ${user.id}`);
    const webhooks = delivery.matching({ event: event as EventName, userId: user.id }).length;
    if (!v1) {
      const { content, orderKey } = triggerV2(ctx, event as V2DataEvent, user, { status, credentialsId });
      res.json(200, { event, userId: user.id, orderKey, webhooks, content });
      return;
    }
    const { content, orderKey } = realisticContent(ctx, event as WebhookEvent, user, { status, credentialsId });
    ctx.events.emit({ event: event as EventName, userId: user.id, content, orderKey }, ctx.clock.now());
    res.json(200, { event, userId: user.id, orderKey, webhooks, content });
  });
  registerEventsV2(ctx, delivery);
}

function short(v: string | undefined, field: string): string | undefined {
  if (v !== undefined && (v.length === 0 || v.length > 200))
    throw badRequest(`${field} must be 1 to 200 characters`, { field });
  return v;
}

/** The ids of the user's credentials: made through the API or the link flow, a connector user's, its accounts'. */
function credentialsOf(ctx: SandboxContext, user: UserRecord): Set<string> {
  const ids = new Set<string>();
  for (const c of ctx.store.area('credentials', () => new CredentialsState()).records.values())
    if (c.userId === user.id) ids.add(c.id);
  if (user.connector) ids.add(user.connector.credentialsId);
  for (const a of ctx.store.accounts.values()) if (a.userId === user.id) for (const id of a.credentialsIds) ids.add(id);
  return ids;
}

/** The given user (404 when unknown), else the newest user, else a new one. */
function pickUser(ctx: SandboxContext, id: string | undefined): UserRecord {
  const { store } = ctx;
  if (id !== undefined) {
    const u = store.users.get(id) ?? store.userByExternalId(id);
    if (!u) throw notFound(`user ${id} not found`);
    return u;
  }
  let newest: UserRecord | undefined;
  for (const u of store.users.values()) if (!newest || u.created >= newest.created) newest = u;
  if (newest) return newest;
  const u: UserRecord = { id: store.ids.next(), market: 'SE', locale: 'sv_SE', created: ctx.clock.now() };
  store.addUser(u);
  return u;
}

function realisticContent(
  ctx: SandboxContext,
  event: WebhookEvent,
  user: UserRecord,
  o: { status?: string; credentialsId?: string },
): { content: Record<string, unknown>; orderKey: string } {
  const { store } = ctx;
  const now = ctx.clock.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const credentialsId = o.credentialsId ?? user.connector?.credentialsId ?? store.ids.next();
  // the route checked the status against TRIGGER_STATUSES: a transaction event takes none (it was
  // answered 200 as if it had been used)
  switch (event) {
    case 'credentials:create':
    case 'credentials:update': {
      const status = o.status ?? (event === 'credentials:create' ? 'CREATED' : 'UPDATED');
      const content = {
        id: credentialsId,
        providerName: 'se-test-other-password',
        type: 'PASSWORD',
        status,
        statusUpdated: now,
        statusPayload: status === 'AUTHENTICATION_ERROR' ? 'Incorrect username or password.' : '',
        updated: status === 'UPDATED' ? now : null,
        userId: user.id,
        fields: { username: 'test-user' },
        providerLatency: 0,
        supplementalInformation: null,
      };
      return { content, orderKey: credentialsId };
    }
    case 'transaction:create':
    case 'transaction:update': {
      let tx: import('../store.js').TransactionRecord | undefined;
      // of the given credentials' accounts, when one is given (a transaction of another was labelled with it)
      const ofCredentials = (t: import('../store.js').TransactionRecord) =>
        o.credentialsId === undefined ||
        Boolean(store.accounts.get(t.accountId)?.credentialsIds.includes(o.credentialsId));
      for (const t of store.transactions.ofUser(user.id)) if ((!tx || t.seq > tx.seq) && ofCredentials(t)) tx = t;
      const account = tx ? store.accounts.get(tx.accountId) : undefined;
      const txCredentials = o.credentialsId ?? account?.credentialsIds[0] ?? credentialsId;
      // the user's newest transaction, exactly as the connector's own events show it
      if (tx)
        return {
          content: { ...apiTransaction(tx), userId: user.id, credentialsId: txCredentials },
          orderKey: txCredentials,
        };
      const content = {
        id: store.ids.next(),
        accountId: store.ids.next(),
        userId: user.id,
        credentialsId: txCredentials,
        amount: { currencyCode: 'SEK', value: { scale: '2', unscaledValue: '-12550' } },
        categories: { pfm: { id: store.ids.next(), name: 'Coffee & snacks' } },
        dates: { booked: today, value: today },
        descriptions: { display: 'Coffee House', original: 'COFFEE HOUSE STHLM' },
        identifiers: { providerTransactionId: store.ids.next() },
        merchantInformation: { merchantCategoryCode: '5814', merchantName: 'Coffee House' },
        providerMutability: 'MUTABILITY_UNDEFINED',
        reference: '',
        status: 'BOOKED',
        types: { financialInstitutionTypeCode: '', type: 'DEFAULT' },
      };
      return { content, orderKey: txCredentials };
    }
    case 'signable-operation:update': {
      const status = o.status ?? 'EXECUTED';
      const id = store.ids.next();
      const content = {
        created: now,
        credentialsId,
        id,
        status,
        statusMessage:
          status === 'EXECUTED'
            ? 'The transfer has been executed.'
            : status === 'FAILED'
              ? 'The transfer could not be executed.'
              : '',
        type: 'TRANSFER',
        underlyingId: store.ids.next(),
        updated: now,
        userId: user.id,
      };
      return { content, orderKey: credentialsId };
    }
  }
}
