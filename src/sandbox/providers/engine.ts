// The credentials status machine (spec 3.1 and the status notes): each refresh is a "run" driven by
// ctx.setTimeout. Machine steps take a short moment; waits a person would spend take
// ctx.options.authDelayMs. statusUpdated strictly increases; every change is a credentials:update
// event (credentials:create at creation), ordered by the credentials id.
import { ExactNumber, writeJson } from '../../contract/exact-json.js';
import { decimalText } from '../../contract/decimal.js';
import type { SandboxContext } from '../context.js';
import type { AccountRecord } from '../store.js';
import { generateDemoData, planDemoAccounts, type DemoDataOptions } from '../demo-data.js';
import { emitRefreshFinished, withDataEvents } from '../events-v2.js';
import { providerByName, type ProviderDef } from './catalogue.js';
import type { FinalError, FlowApi, Script, SupplementalField, ThirdPartyPayload } from './flow.js';
import { SCRIPTS } from './index.js';

export interface DetailedError {
  type: string;
  displayMessage: string;
  details: { reason: string; retryable: boolean };
}

export interface CredRecord {
  id: string;
  userId: string;
  providerName: string;
  type: string;
  fields: Record<string, string>;
  status: string;
  statusUpdated: number;
  statusPayload: string;
  updated: number | null;
  /** Exactly as the service sends it: a serialized JSON string, the bare eID token, or null. */
  supplementalInformation: string | null;
  sessionExpiryDate: number | null;
  appUri?: string;
  callbackUri?: string;
  accountIds: string[];
  /** Account opt-in: the opted-in account ids, undefined while no opt-in was made. */
  optedIn?: string[];
  /** The next refresh must authenticate (new, modified, or after an authentication error). */
  needsAuth: boolean;
  detailedError?: DetailedError;
  items?: string[];
  created: number;
}

export class CredentialsState {
  records = new Map<string, CredRecord>();
}

export const FINAL = new Set([
  'UPDATED',
  'AUTHENTICATION_ERROR',
  'TEMPORARY_ERROR',
  'PERMANENT_ERROR',
  'SESSION_EXPIRED',
  'DELETED',
]);
const SESSION_MS = 90 * 86_400_000;
const SUPPLEMENTAL_TIMEOUT_MS = 120_000;

export interface RunMode {
  kind: 'refresh' | 'authenticate';
  optIn?: boolean;
  authenticate?: boolean;
  items?: string[];
  /** A script run instead of the provider's own (`sandbox credentials set-status`); it always authenticates. */
  script?: Script;
}

/** The engine of each sandbox, for the test bench's state controls (src/sandbox/bench/). */
export const ENGINES = new WeakMap<SandboxContext, CredentialsEngine>();

class Stop extends Error {}
class FlowFail extends Error {
  constructor(
    readonly status: FinalError,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

interface Round {
  fields: SupplementalField[];
  resolve(answers: Record<string, string>): void;
  reject(err: Error): void;
}

export class Run {
  cancelled = false;
  round?: Round;
  app?: { state: string; done(approved: boolean): void };
  eidToken?: string;
  constructor(readonly rec: CredRecord) {}
}

export class CredentialsEngine {
  readonly runs = new Map<string, Run>();
  /** third-party state -> credentials id */
  readonly states = new Map<string, string>();

  constructor(private readonly ctx: SandboxContext) {
    ENGINES.set(ctx, this);
  }

  private readonly swept = new WeakSet<CredentialsState>();

  get state(): CredentialsState {
    const state = this.ctx.store.area('credentials', () => new CredentialsState());
    if (!this.swept.has(state)) {
      this.swept.add(state);
      // state loaded from a snapshot (--data) can hold refreshes that were running when the
      // sandbox stopped; nothing drives them now, so they end as a temporary error
      for (const rec of state.records.values()) {
        if (FINAL.has(rec.status) || this.runs.get(rec.id)?.rec === rec) continue;
        // CREATED may be credentials made with triggerRefresh=false: nothing was running
        if (rec.status === 'CREATED') continue;
        rec.detailedError = {
          type: 'PROVIDER_ERROR',
          displayMessage: 'The sandbox restarted during the refresh.',
          details: { reason: 'SANDBOX_RESTARTED', retryable: true },
        };
        this.setStatus(rec, 'TEMPORARY_ERROR', { payload: 'The sandbox restarted during the refresh; refresh again.' });
      }
    }
    return state;
  }

  get machineDelay(): number {
    return Math.max(1, Math.min(300, Math.floor(this.ctx.options.authDelayMs / 5)));
  }

  activeRun(rec: CredRecord): Run | undefined {
    const r = this.runs.get(rec.id);
    return r && r.rec === rec && !r.cancelled ? r : undefined;
  }

  inProgress(rec: CredRecord): boolean {
    return this.activeRun(rec) !== undefined;
  }

  /** The credentials as the API shows them: sensitive field values are never sent back. */
  view(rec: CredRecord): Record<string, unknown> {
    const provider = providerByName(rec.providerName);
    const sensitive = new Set(provider?.fields.filter((f) => f.sensitive || f.masked).map((f) => f.name) ?? []);
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(rec.fields)) if (!sensitive.has(k)) fields[k] = v;
    return {
      id: rec.id,
      providerName: rec.providerName,
      type: rec.type,
      status: rec.status,
      statusPayload: rec.statusPayload,
      statusUpdated: rec.statusUpdated,
      updated: rec.updated,
      fields,
      supplementalInformation: rec.supplementalInformation,
      sessionExpiryDate: rec.sessionExpiryDate,
      userId: rec.userId,
      providerLatency: 0,
    };
  }

  emitCreate(rec: CredRecord): void {
    this.ctx.events.emit(
      { event: 'credentials:create', userId: rec.userId, content: this.view(rec), orderKey: rec.id },
      this.ctx.clock.now(),
    );
  }

  setStatus(
    rec: CredRecord,
    status: string,
    o: { supplementalInformation?: string | null; payload?: string } = {},
  ): void {
    const now = this.ctx.clock.now();
    rec.status = status;
    rec.statusUpdated = Math.max(now, rec.statusUpdated + 1);
    rec.supplementalInformation = o.supplementalInformation ?? null;
    rec.statusPayload = o.payload ?? '';
    this.ctx.events.emit(
      { event: 'credentials:update', userId: rec.userId, content: this.view(rec), orderKey: rec.id },
      now,
    );
  }

  cancel(rec: CredRecord): void {
    const run = this.runs.get(rec.id);
    if (!run) return;
    run.cancelled = true;
    if (run.app) this.states.delete(run.app.state);
    run.round?.reject(new Stop());
    run.app?.done(false);
    this.runs.delete(rec.id);
  }

  /** Starts a refresh (or an authentication) in the background. */
  start(rec: CredRecord, mode: RunMode): void {
    this.cancel(rec);
    const run = new Run(rec);
    this.runs.set(rec.id, run);
    if (mode.items) rec.items = mode.items;
    void this.drive(run, mode);
  }

  private wait(run: Run, ms: number): Promise<void> {
    return new Promise<void>((resolve) => this.ctx.setTimeout(resolve, ms)).then(() => {
      if (run.cancelled) throw new Stop();
    });
  }

  demoOptions(rec: CredRecord, provider: ProviderDef): DemoDataOptions {
    const optedIn = rec.optedIn;
    const types = itemAccountTypes(rec.items);
    return {
      userId: rec.userId,
      credentialsIds: [rec.id],
      providerName: rec.providerName,
      currencyCode: provider.currency,
      market: provider.market === 'UK' ? 'GB' : provider.market,
      // the same person at the same institution sees the same accounts through every consent
      seed: `${rec.userId}:${provider.financialInstitutionId}:${rec.fields.username ?? ''}`,
      now: this.ctx.clock.now(),
      accountFilter:
        optedIn || types
          ? (a: AccountRecord) => (!optedIn || optedIn.includes(a.id)) && (!types || types.has(a.type))
          : undefined,
    };
  }

  private api(run: Run, provider: ProviderDef): FlowApi {
    const { rec } = run;
    const check = () => {
      if (run.cancelled) throw new Stop();
    };
    const api: FlowApi = {
      provider,
      fields: rec.fields,
      humanDelay: this.ctx.options.authDelayMs,
      baseUrl: this.ctx.baseUrl(),
      payload: (message) => {
        check();
        rec.statusPayload = message;
        this.setStatus(rec, rec.status, { payload: message });
      },
      wait: (ms) => this.wait(run, ms),
      fail: (status, message, reason = 'USER_LOGIN_ERROR') => {
        throw new FlowFail(status, message, reason);
      },
      ask: (fields) => {
        check();
        return new Promise<Record<string, string>>((resolve, reject) => {
          run.round = { fields, resolve, reject };
          this.setStatus(rec, 'AWAITING_SUPPLEMENTAL_INFORMATION', { supplementalInformation: JSON.stringify(fields) });
          this.ctx.setTimeout(() => {
            if (run.round?.fields === fields)
              reject(
                new FlowFail(
                  'AUTHENTICATION_ERROR',
                  'No supplemental information arrived in time.',
                  'AUTHENTICATION_TIMEOUT',
                ),
              );
          }, SUPPLEMENTAL_TIMEOUT_MS);
        }).finally(() => {
          run.round = undefined;
          check();
        });
      },
      eid: async () => {
        check();
        run.eidToken = this.ctx.store.ids.uuid();
        this.setStatus(rec, 'AWAITING_MOBILE_BANKID_AUTHENTICATION', { supplementalInformation: run.eidToken });
        await this.wait(run, this.ctx.options.authDelayMs);
        run.eidToken = undefined;
      },
      thirdParty: (build) => {
        check();
        const state = this.ctx.store.ids.secret(24);
        const payload: ThirdPartyPayload = build(state);
        return new Promise<boolean>((resolve) => {
          let settled = false;
          const done = (approved: boolean) => {
            if (settled) return;
            settled = true;
            this.states.delete(state);
            run.app = undefined;
            resolve(approved);
          };
          run.app = { state, done };
          this.states.set(state, rec.id);
          this.setStatus(rec, 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION', {
            supplementalInformation: JSON.stringify(payload),
          });
          this.ctx.setTimeout(() => done(true), this.ctx.options.authDelayMs);
        }).then((approved) => {
          check();
          return approved;
        });
      },
    };
    return api;
  }

  private async drive(run: Run, mode: RunMode): Promise<void> {
    const { rec } = run;
    const provider = providerByName(rec.providerName);
    try {
      if (!provider) throw new FlowFail('TEMPORARY_ERROR', 'The provider is no longer available.', 'PROVIDER_ERROR');
      await this.wait(run, this.machineDelay);
      this.setStatus(rec, 'AUTHENTICATING');
      const now = this.ctx.clock.now();
      const sessionValid = rec.sessionExpiryDate !== null && rec.sessionExpiryDate > now;
      const mustAuth = mode.kind === 'authenticate' || mode.authenticate || rec.needsAuth || !!mode.script;
      if (!mustAuth && rec.sessionExpiryDate !== null && !sessionValid) {
        await this.wait(run, this.machineDelay);
        this.setStatus(rec, 'SESSION_EXPIRED', { payload: 'The session at the bank has expired; authenticate again.' });
        rec.detailedError = {
          type: 'USER_LOGIN_ERROR',
          displayMessage: 'The session at the bank has expired.',
          details: { reason: 'SESSION_EXPIRED', retryable: false },
        };
        return;
      }
      if (mustAuth || !sessionValid) {
        await (mode.script ?? SCRIPTS[provider.flow])(this.api(run, provider));
        rec.sessionExpiryDate = this.ctx.clock.now() + SESSION_MS;
      }
      rec.needsAuth = false;
      if (mode.optIn) await this.optIn(run, provider);
      if (mode.kind === 'authenticate') {
        await this.wait(run, this.machineDelay);
        rec.detailedError = undefined;
        this.setStatus(rec, 'UPDATED');
        return;
      }
      await this.wait(run, this.machineDelay);
      this.setStatus(rec, 'UPDATING', { payload: 'Fetching accounts and transactions.' });
      await this.wait(run, this.machineDelay);
      const accounts = withDataEvents(this.ctx, rec.userId, () =>
        generateDemoData(this.ctx.store, this.demoOptions(rec, provider)),
      );
      rec.accountIds = accounts.map((a) => a.id);
      rec.updated = this.ctx.clock.now();
      rec.detailedError = undefined;
      this.setStatus(rec, 'UPDATED', { payload: `Fetched ${accounts.length} accounts.` });
    } catch (err) {
      if (err instanceof Stop || run.cancelled) return;
      const f =
        err instanceof FlowFail
          ? err
          : new FlowFail('TEMPORARY_ERROR', 'An internal error occurred at the provider.', 'INTERNAL_ERROR');
      if (f.status === 'AUTHENTICATION_ERROR') rec.needsAuth = true;
      rec.detailedError = {
        type: f.status === 'AUTHENTICATION_ERROR' ? 'USER_LOGIN_ERROR' : 'PROVIDER_ERROR',
        displayMessage: f.message,
        details: { reason: f.reason, retryable: f.status === 'TEMPORARY_ERROR' },
      };
      this.setStatus(rec, f.status, { payload: f.message });
    } finally {
      if (!run.cancelled && FINAL.has(rec.status) && rec.status !== 'DELETED') emitRefreshFinished(this.ctx, rec);
      if (this.runs.get(rec.id) === run) this.runs.delete(rec.id);
    }
  }

  /** Spec 2.1 opt-in: one checkbox per account with additionalInfo; the complete state comes back. */
  private async optIn(run: Run, provider: ProviderDef): Promise<void> {
    const { rec } = run;
    const plan = planDemoAccounts({ ...this.demoOptions(rec, provider), accountFilter: undefined });
    const fields: SupplementalField[] = plan.map((a) => ({
      name: a.id,
      description: `${a.name} ${a.accountNumber}`,
      checkbox: true,
      pattern: 'true/false',
      value: rec.optedIn?.includes(a.id) ? 'true' : 'false',
      optional: false,
      // balance as a JSON number written from its exact decimal text (the real service's way)
      additionalInfo: writeJson({
        accountName: a.name,
        accountType: a.type,
        balance: new ExactNumber(decimalText(a.balance)),
        currencyCode: a.currencyCode,
        holderName: a.holderName,
        iban: a.iban,
        ...(a.type === 'INVESTMENT' ? { portfolioTypes: [a.portfolioType ?? 'OTHER'] } : {}),
      }),
    }));
    const answers = await this.api(run, provider).ask(fields);
    rec.optedIn = plan.filter((a) => answers[a.id] === 'true').map((a) => a.id);
  }

  /** Answers a supplemental round: undefined when accepted, else the 400 message. */
  supplement(rec: CredRecord, information: Record<string, string>): string | undefined {
    const run = this.activeRun(rec);
    const round = run?.round;
    if (!run || !round || rec.status !== 'AWAITING_SUPPLEMENTAL_INFORMATION')
      return 'the credentials are not waiting for supplemental information';
    if (Object.keys(information).length === 0) {
      // an empty map cancels the round, as the service's SDKs do
      round.reject(
        new FlowFail('AUTHENTICATION_ERROR', 'The supplemental information was cancelled.', 'USER_CANCELLED'),
      );
      return undefined;
    }
    const missing = round.fields
      .filter((f) => !f.optional && !f.immutable && (information[f.name] === undefined || information[f.name] === ''))
      .map((f) => f.name);
    if (missing.length > 0) return `missing supplemental information: ${missing.join(', ')}`;
    for (const f of round.fields) {
      if (f.checkbox && information[f.name] !== 'true' && information[f.name] !== 'false')
        return `${f.name} must be "true" or "false"`;
    }
    round.resolve(information);
    return undefined;
  }

  /** The relayed callback or the test bank's page finished a third-party/redirect wait. */
  finishApp(state: string, approved: boolean): CredRecord | undefined {
    const id = this.states.get(state);
    const rec = id ? this.state.records.get(id) : undefined;
    const run = rec ? this.activeRun(rec) : undefined;
    if (!rec || !run?.app || run.app.state !== state) return undefined;
    run.app.done(approved);
    return rec;
  }

  eidToken(rec: CredRecord): string | undefined {
    const run = this.activeRun(rec);
    return rec.status === 'AWAITING_MOBILE_BANKID_AUTHENTICATION' ? run?.eidToken : undefined;
  }

  /** Deletion: accounts and transactions go when the last credentials giving access to them go. */
  removeData(userId: string, credentialsId: string): void {
    const { store } = this.ctx;
    const gone = new Set<string>();
    for (const [id, a] of store.accounts) {
      if (a.userId !== userId || !a.credentialsIds.includes(credentialsId)) continue;
      a.credentialsIds = a.credentialsIds.filter((c) => c !== credentialsId);
      if (a.credentialsIds.length === 0) {
        store.accounts.delete(id);
        gone.add(id);
      }
    }
    if (gone.size === 0) return;
    for (const t of store.transactions.ofUser(userId)) if (gone.has(t.accountId)) store.transactions.delete(t.id);
  }
}

const ITEM_TYPES: Record<string, string[]> = {
  CHECKING: ['CHECKING'],
  SAVING: ['SAVINGS'],
  CREDITCARD: ['CREDIT_CARD'],
  LOAN: ['LOAN', 'MORTGAGE'],
  INVESTMENT: ['INVESTMENT'],
};

function itemAccountTypes(items: string[] | undefined): Set<string> | undefined {
  if (!items || items.length === 0) return undefined;
  const out = new Set<string>();
  for (const i of items) for (const t of ITEM_TYPES[i.split('_')[0]!] ?? []) out.add(t);
  return out.size > 0 ? out : undefined;
}
