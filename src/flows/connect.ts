// The credentials status-machine walker (spec 3.1, the status notes, the contract's `credentials
// connect`): polls GET /api/v1/credentials/{id} with backoff, acts once per round (a round is a
// changed statusUpdated), answers supplemental fields from --answer/--answers or prompts, shows the
// eID deep link and the third-party payload as text and QR codes, opens or prints redirect URLs,
// and ends at a final status: UPDATED returns, the error statuses throw FlowFailedError (exit 9).
import type { Context } from '../context.js';
import { canPrompt } from '../io.js';
import { ApiError, FlowFailedError, InterruptedError, UsageError } from '../errors.js';
import {
  CREDENTIALS_STATUSES,
  FAILED_STATUSES,
  FINAL_STATUSES,
  getCredentials,
  supplementInformation,
  type Credentials,
} from '../api/credentials.js';
import { singleLine } from '../output/sanitize.js';
import { nearest } from '../config/names.js';
import { noTerminalHint, pipedStdout, type Choice, type Prompter } from '../prompts/prompter.js';
import {
  describeAccount,
  describeOptions,
  instructionLines,
  parseSupplemental,
  selectOptions,
  validateAnswer,
  type SelectOption,
  type SupplementalField,
  type ThirdPartyPayload,
} from './supplemental.js';

const BUSY = new Set(['CREATED', 'AUTHENTICATING', 'UPDATING']);
const EID_STATUSES = new Set(['AWAITING_MOBILE_EID_AUTHENTICATION', 'AWAITING_MOBILE_BANKID_AUTHENTICATION']);
const KNOWN = new Set<string>(CREDENTIALS_STATUSES);

export const EID_SCHEME = 'bankid';
export const EID_HOST = 'app.bankid.com';

export interface WalkOptions {
  id: string;
  /** Answers by field name (--answer, --answers). */
  answers: Record<string, string>;
  /**
   * Names of `answers` taken before the walk (connect's and update's provider fields from the
   * --answers file): not named as unused when the walk ends.
   */
  used?: Set<string>;
  waitTimeoutMs: number;
  /** First poll interval; it grows by half each quiet poll up to maxPollMs, and resets on a change. */
  pollMs?: number;
  maxPollMs?: number;
  /** The eID return URL; also gives the iOS https link. */
  returnUrl?: string;
  browser?: boolean;
  /** QR codes on stderr: auto (when stderr is a terminal), always, never. */
  qr?: 'auto' | 'always' | 'never';
  /** Acts on rounds already seen before the walk (the create response) too. */
  initial?: Credentials;
  /**
   * The credentials as read just before the request that started this walk (refresh, authenticate),
   * or as the request answered (update's PUT):
   * a final status that is still that one (same status and statusUpdated) is the previous round's,
   * not this request's answer, and is waited past. When it was read mid-round, the first final
   * status the walk sees is waited past the same way (see poll).
   */
  before?: Credentials;
}

/** Whether c is still the final status read before the request (see WalkOptions.before). */
export function unchangedSince(c: Credentials, before: Credentials | undefined): boolean {
  if (before === undefined || !FINAL_STATUSES.has(c.status)) return false;
  // without a statusUpdated a new round cannot be told from the old one: taken as it is
  if (typeof before.statusUpdated !== 'number') return false;
  return roundKey(c) === roundKey(before);
}

/**
 * Ends the walk cleanly on Ctrl-C: wakes a sleeping poll, ends the request in flight (a service that
 * does not answer held the walk for its timeout and every retry, deaf to Ctrl-C) and makes the next
 * step throw.
 */
class Interrupt {
  fired = false;
  private wake?: () => void;
  private readonly abort = new AbortController();
  get signal(): AbortSignal {
    return this.abort.signal;
  }
  fire(): void {
    this.fired = true;
    this.abort.abort(new InterruptedError('interrupted'));
    this.wake?.();
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.wake = undefined;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/** A spinner on stderr, only on a terminal and never with --quiet. */
class Progress {
  private spinner?: import('ora').Ora;
  constructor(private readonly ctx: Context) {}
  get enabled(): boolean {
    // a terminal that reports 0 columns (some CI and container ptys): ora divides a line's width by
    // it and clears lines forever, so the walk never moves on
    const columns = (this.ctx.io.stderr as { columns?: number }).columns;
    return this.ctx.io.stderrIsTTY && !this.ctx.quiet && typeof columns === 'number' && columns > 0;
  }
  async show(text: string): Promise<void> {
    if (!this.enabled) return;
    if (this.spinner) {
      this.spinner.text = text;
      return;
    }
    const { default: ora } = await import('ora');
    this.spinner = ora({
      text,
      stream: this.ctx.io.stderr,
      discardStdin: false,
      isEnabled: true,
      // ora's chalk reads neither NO_COLOR nor the context's --no-color
      color: this.ctx.color ? 'cyan' : false,
    }).start();
  }
  stop(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }
}

function roundKey(c: Credentials): string {
  const stamp = c.statusUpdated === undefined || c.statusUpdated === null ? '' : String(c.statusUpdated);
  // without a statusUpdated, a changed supplementalInformation is what marks a new round
  return `${c.status}|${stamp}|${stamp === '' ? JSON.stringify(c.supplementalInformation ?? null) : ''}`;
}

/** Bank text for a line of its own (a status, a prompt, a help text): stripped, on one line. */
function clean(s: unknown): string {
  return singleLine(String(s ?? '')).trim();
}

/** The state of one walk that its steps share. */
interface Walk {
  ctx: Context;
  api: Awaited<ReturnType<Context['api']>>;
  o: WalkOptions;
  interrupt: Interrupt;
  progress: Progress;
  interactive: boolean;
  /** The answers the rounds took, and the fields they asked for. */
  use: AnswerUse;
  current?: Credentials;
  say(line: string): void;
  check(): void;
}

export async function walkCredentials(ctx: Context, o: WalkOptions): Promise<Credentials> {
  const uf = ctx.userFlag();
  const interrupt = new Interrupt();
  const release = ctx.claimInterrupt(() => interrupt.fire());
  const progress = new Progress(ctx);
  // what a Ctrl-C leaves behind, while polling or at a prompt of a round alike
  const leftBehind = () =>
    new InterruptedError(`interrupted; credentials ${o.id} were left in status ${w.current?.status ?? 'unknown'}`, {
      hint: `follow them with \`bankctl credentials watch${uf} ${o.id}\` or remove them with \`bankctl credentials delete${uf} ${o.id}\``,
    });
  const w: Walk = {
    ctx,
    api: await ctx.api(),
    o,
    interrupt,
    progress,
    interactive: canPrompt(ctx.io),
    use: new AnswerUse(o.used),
    say(line) {
      progress.stop();
      ctx.notice(line);
    },
    check() {
      if (!interrupt.fired) return;
      progress.stop();
      throw leftBehind();
    },
  };
  try {
    const final = await poll(w);
    warnUnusedAnswers(ctx, o.answers, w.use);
    return final;
  } catch (err) {
    // a flow that failed or timed out may have failed for the answer that went unused
    if (err instanceof FlowFailedError && !interrupt.fired) {
      progress.stop();
      warnUnusedAnswers(ctx, o.answers, w.use);
    }
    // a Ctrl-C is an interruption (130) whatever the aborted request threw, and says where it left
    // the credentials (the progress line is stopped in `finally`, before the error is shown)
    const said = err instanceof InterruptedError && err.message.includes(o.id);
    if (!said && (interrupt.fired || err instanceof InterruptedError)) throw leftBehind();
    throw err;
  } finally {
    progress.stop();
    release();
  }
}

/** Polls until a final status, acting once per round. */
async function poll(w: Walk): Promise<Credentials> {
  const { ctx, o } = w;
  const uf = ctx.userFlag();
  const started = ctx.clock.now();
  const first = o.pollMs ?? 500;
  const max = Math.max(first, o.maxPollMs ?? 5000);
  let delay = first;
  let lastKey = '';
  let pending: Credentials | undefined = o.initial;
  // The final status this request's round is told apart from: the one read before the request, or,
  // when a round was running then and the walk's first read is already final, that status. One round
  // runs at a time, so a service that took the request had ended that round, maybe in the moment
  // between the read and the request: the final status may be its end as well as this round's, and
  // only a change tells them apart. Waiting past it risks a timeout (this round ended before the
  // first read); taking it would risk a silent wrong answer.
  let reference = o.before;
  let settled = reference === undefined || FINAL_STATUSES.has(reference.status);
  for (;;) {
    w.check();
    const c: Credentials = pending ?? (await getCredentials(w.api, o.id, { signal: w.interrupt.signal }));
    pending = undefined;
    w.current = c;
    w.check();
    const key = roundKey(c);
    if (!settled) {
      // a status still in a round (that one's, or this one's already) is followed to its end as ever
      settled = true;
      if (FINAL_STATUSES.has(c.status)) reference = c;
    }
    // the reference is that first final status, not the read before the request
    const ambiguous = reference !== o.before;
    // the previous round's final status, before the service has begun this one: not an answer
    const stale = unchangedSince(c, reference);
    if (stale && key !== lastKey) {
      lastKey = key;
      await w.progress.show(
        ambiguous
          ? `waiting for the service to begin (${clean(c.status)} may be the end of the round that ran before)`
          : `waiting for the service to begin (still ${clean(c.status)} from before)`,
      );
    } else if (key !== lastKey) {
      lastKey = key;
      delay = first;
      const payload = clean(c.statusPayload);
      if (!BUSY.has(c.status) || !w.progress.enabled) w.say(`${clean(c.status)}${payload ? `: ${payload}` : ''}`);
      if (c.status === 'UPDATED') return c;
      failIfFailed(c, o.id, uf);
      if (await actOnRound(w, c)) delay = Math.min(first, 200);
    }
    if (BUSY.has(c.status) && !stale)
      await w.progress.show(`${c.status.toLowerCase()}${c.statusPayload ? `: ${clean(c.statusPayload)}` : ''}`);
    if (ctx.clock.now() - started > o.waitTimeoutMs) {
      w.progress.stop();
      throw new FlowFailedError(
        `credentials ${o.id} did not reach a final status within ${Math.round(o.waitTimeoutMs / 1000)} s (last status ${clean(c.status)})`,
        {
          hint:
            stale && ambiguous
              ? `a round was running when the request was sent, and ${clean(c.status)} may be its end or this request's: \`bankctl credentials get${uf} ${o.id}\` shows its statusUpdated`
              : `raise --wait-timeout, or follow them with \`bankctl credentials watch${uf} ${o.id}\``,
        },
      );
    }
    await w.interrupt.sleep(delay);
    delay = Math.min(max, Math.round(delay * 1.5));
  }
}

/** The error statuses end the walk with exit 9. */
function failIfFailed(c: Credentials, id: string, uf: string): void {
  if (!FAILED_STATUSES.has(c.status)) return;
  const msg = clean(c.statusPayload);
  throw new FlowFailedError(`credentials ${id} ended in ${clean(c.status)}${msg ? `: ${msg}` : ''}`, {
    hint:
      c.status === 'TEMPORARY_ERROR'
        ? `try again later: \`bankctl credentials refresh${uf} ${id}\``
        : c.status === 'DELETED'
          ? undefined
          : c.status === 'PERMANENT_ERROR'
            ? `they cannot be used again (the service disabled the provider): remove them with \`bankctl credentials delete${uf} ${id}\``
            : `fix the input with \`bankctl credentials update${uf} ${id} --field ... --wait\`, or try again with \`bankctl credentials refresh${uf} ${id} --authenticate --wait\``,
  });
}

/** What a new round asks of the person; true when an answer was sent (poll again soon). */
async function actOnRound(w: Walk, c: Credentials): Promise<boolean> {
  const { ctx, o } = w;
  const sup = () => parseSupplemental(c.supplementalInformation);
  if (c.status === 'AWAITING_SUPPLEMENTAL_INFORMATION') {
    const s = sup();
    if (s.kind !== 'fields') {
      w.say(`the service asks for supplemental information in a shape this client does not know (${s.kind}); waiting`);
      return false;
    }
    w.progress.stop();
    const prompter = w.interactive ? await ctx.prompter() : undefined;
    const answering = collectAnswers(ctx, s.fields, o.answers, prompter, w.interrupt, '--answer', w.use);
    const information = await answering.catch((err: unknown) => {
      // no terminal to ask on: the exact command that answers this round later
      if (err instanceof UsageError && !prompter) {
        const answer = (f: SupplementalField) => {
          const options = selectOptions(f).map((x) => x.value);
          return `--answer ${f.name}=${options.length > 0 ? `{${options.join('|')}}` : 'VALUE'}`;
        };
        const editable = s.fields.filter((f) => !f.immutable && !f.checkbox);
        const asked = editable.filter((f) => !f.optional).map(answer);
        // an optional field may be left out: named beside the command, not in it
        const optional = editable.filter((f) => f.optional).map(answer);
        const boxes = s.fields.find((f) => !f.immutable && f.checkbox);
        if (boxes) asked.push(`--answer '${ALL_CHECKBOXES}=true'`);
        const more = [
          ...(optional.length > 0 ? [`optional: ${optional.join(' ')}`] : []),
          'or --answers FILE',
          ...(boxes ? [`a checkbox by its name, e.g. --answer ${boxes.name}=false`] : []),
        ];
        const piped = pipedStdout(ctx.io);
        err.hint = `${piped ? `${piped}; ` : ''}credentials ${o.id} wait for it: \`bankctl credentials supplement${ctx.userFlag()} ${o.id} ${asked.join(' ')}\` (${more.join('; ')})`;
      }
      throw err;
    });
    w.check();
    try {
      await supplementInformation(w.api, o.id, information, { signal: w.interrupt.signal });
    } catch (err) {
      // the answer came after the bank stopped waiting (a person slow at the prompt: the round timed
      // out): the 400 is not the news, the status the credentials moved on to is
      if (!(err instanceof ApiError && err.status >= 400 && err.status < 500)) throw err;
      const now = await getCredentials(w.api, o.id, { signal: w.interrupt.signal }).catch(() => undefined);
      if (!now || roundKey(now) === roundKey(c)) throw err;
      w.say(`the answer came too late: the bank no longer waits for it (now ${clean(now.status)})`);
      return true;
    }
    ctx.trace(`supplemental information sent for ${Object.keys(information).length} field(s)`);
    return true;
  }
  if (EID_STATUSES.has(c.status)) {
    const s = sup();
    if (s.kind === 'token') await showEid(ctx, s.token, o);
    // no autostart token to draw: the service's QR code of the same login (GET .../qr) is at hand
    else
      w.say(
        `open your mobile eID app to authenticate (its QR code: \`bankctl credentials qr${ctx.userFlag()} ${o.id} -O qr.png\`)`,
      );
  } else if (c.status === 'AWAITING_THIRD_PARTY_APP_AUTHENTICATION') {
    const s = sup();
    w.progress.stop();
    if (s.kind === 'payload') await showPayload(ctx, s.payload, o);
    else w.say('open the authentication app to continue');
  } else if (!KNOWN.has(c.status)) {
    w.say(`status ${clean(c.status)} is not one this client knows; still waiting for a final status`);
  }
  return false;
}

/** The --answer name that answers every checkbox field (account opt-in) not answered by its own name. */
export const ALL_CHECKBOXES = '*';

/**
 * Which of the given answers the rounds took, and the editable fields they asked for. A bank need
 * not ask every time (an opt-in only some days), so an answer no round took is a warning at the end,
 * not an error; a misspelt one (`--answer code=...` for code1) was dropped without a word.
 */
export class AnswerUse {
  readonly used: Set<string>;
  readonly asked = new Set<string>();
  constructor(used?: Iterable<string>) {
    this.used = new Set(used);
  }
  /** One round's fields, answered from `given`. */
  note(fields: SupplementalField[], given: Record<string, string>): void {
    for (const f of fields) {
      if (f.immutable) continue;
      this.asked.add(f.name);
      if (given[f.name] !== undefined) this.used.add(f.name);
      else if (f.checkbox && given[ALL_CHECKBOXES] !== undefined) this.used.add(ALL_CHECKBOXES);
    }
  }
  unused(given: Record<string, string>): string[] {
    return Object.keys(given).filter((k) => !this.used.has(k));
  }
}

/** `code (did you mean code1?)`: an unused answer's name, with the asked field nearest to it. */
function nameWithNearest(name: string, asked: string[]): string {
  const near = name === ALL_CHECKBOXES ? undefined : nearest(name, asked);
  return `${clean(name).slice(0, 60)}${near ? ` (did you mean ${near}?)` : ''}`;
}

/** The warning for answers given that no round took, naming the fields that were asked for. */
export function warnUnusedAnswers(ctx: Context, given: Record<string, string>, use: AnswerUse): void {
  const unused = use.unused(given);
  if (unused.length === 0) return;
  const asked = [...use.asked];
  const names = unused
    .map((n) =>
      nameWithNearest(
        n,
        asked.filter((a) => !use.used.has(a)),
      ),
    )
    .join(', ');
  const what = unused.length === 1 ? 'was' : 'were';
  ctx.warn(
    `--answer ${names} ${what} not asked for and not sent${asked.length > 0 ? `; the bank asked for ${asked.map((a) => clean(a)).join(', ')}` : '; the bank asked for no supplemental information'}`,
  );
}

/**
 * The answers for one round: from --answer/--answers first (validated), then the prompts on a
 * terminal; without a terminal a missing answer is a UsageError naming the field. Immutable fields
 * are shown, not asked; checkbox fields become one checklist; masked answers are never echoed.
 */
export async function collectAnswers(
  ctx: Context,
  fields: SupplementalField[],
  given: Record<string, string>,
  prompter: Prompter | undefined,
  interrupt?: { fired: boolean },
  flag: '--answer' | '--field' = '--answer',
  use?: AnswerUse,
): Promise<Record<string, string>> {
  use?.note(fields, given);
  const out: Record<string, string> = {};
  const http = await ctx.http();
  const remember = (f: SupplementalField, v: string) => {
    if (f.masked || f.sensitive) http.redactor.add(v);
    out[f.name] = v;
  };
  // `*` answers every checkbox not answered by name: a script cannot know the accounts' field names
  const answerOf = (f: SupplementalField) => given[f.name] ?? (f.checkbox ? given[ALL_CHECKBOXES] : undefined);
  const checkboxes = fields.filter((f) => f.checkbox && !f.immutable);
  const askCheckboxes = checkboxes.filter((f) => answerOf(f) === undefined);
  // -q shows an instruction only to someone about to be asked: answered by flags, it is noise
  const asking = prompter !== undefined && fields.some((f) => !f.immutable && answerOf(f) === undefined);
  const instruct = !ctx.quiet || asking;
  for (const f of fields) {
    if (f.immutable) {
      // a read-only field is an instruction (a card reader's challenge): its text is shown, not asked
      if (instruct) for (const line of instructionLines(f)) ctx.io.stderr.write(`${clean(line)}\n`);
      if (f.value !== undefined && f.value !== null) out[f.name] = String(f.value);
      continue;
    }
    const v = answerOf(f);
    if (v !== undefined) {
      const ok = validateAnswer(f, v);
      if (ok !== true)
        throw new UsageError(`${flag} ${given[f.name] !== undefined ? f.name : ALL_CHECKBOXES}: ${clean(ok)}`, {
          hint: flag === '--field' ? 'fix the --field value' : 'fix the --answer or --answers value',
        });
      remember(f, v);
    }
  }
  if (askCheckboxes.length > 0) {
    if (prompter) {
      const chosen = await guard(
        prompter.checkbox({
          message: askCheckboxes.length === checkboxes.length ? 'Choose the accounts to share' : 'Choose',
          choices: askCheckboxes.map((f) => ({
            name: clean(describeAccount(f)),
            value: f.name,
            checked: f.value === 'true',
          })),
        }),
        interrupt,
      );
      for (const f of askCheckboxes) out[f.name] = chosen.includes(f.name) ? 'true' : 'false';
    } else {
      // the service's preselection is not an answer: taking it would share what nobody chose (all
      // accounts, or none and a connection that "succeeds" with nothing), so every box is asked for
      const shown = askCheckboxes.slice(0, 5).map((f) => `"${clean(f.name)}" (${clean(describeAccount(f))})`);
      if (askCheckboxes.length > 5) shown.push(`${askCheckboxes.length - 5} more`);
      const first = clean(askCheckboxes[0]!.name);
      const answer = `answer each with true or false (--answer ${first}=true), or all at once with --answer '*=true'`;
      throw new UsageError(`no answer for the checkbox field(s) ${shown.join(', ')} and no terminal to ask on`, {
        hint: noTerminalHint(ctx.io, answer),
      });
    }
  }
  for (const f of fields) {
    if (f.immutable || f.checkbox || out[f.name] !== undefined) continue;
    if (!prompter) {
      if (f.optional) continue;
      if (typeof f.value === 'string' && f.value !== '' && validateAnswer(f, f.value) === true) {
        out[f.name] = f.value;
        continue;
      }
      throw missing(f, flag, ctx.io, use ? use.unused(given) : []);
    }
    const help = [f.helpText, f.hint && !f.helpText?.includes(f.hint) ? `e.g. ${f.hint}` : '']
      .map(clean)
      .filter(Boolean)
      .join(' ');
    if (help) ctx.io.stderr.write(`${help}\n`);
    const message = `${clean(f.description || f.name)}${f.optional && !/optional/i.test(String(f.description ?? '')) ? ' (optional)' : ''}`;
    const validate = (value: string) => {
      const r = validateAnswer(f, value);
      return r === true ? true : clean(r);
    };
    const options = selectOptions(f);
    let value: string;
    if (options.length > 0) value = await guard(prompter.select(choiceOf(f, options, message)), interrupt);
    else if (f.masked) value = await guard(prompter.password({ message, validate }), interrupt);
    else {
      const preset = typeof f.value === 'string' && f.value ? f.value : undefined;
      value = await guard(prompter.input({ message, default: preset, validate }), interrupt);
    }
    if (value === '' && f.optional) continue;
    remember(f, value);
  }
  return out;
}

/** A field with selectOptions as a menu: the service's preselected value first under the cursor. */
function choiceOf(
  f: SupplementalField,
  options: SelectOption[],
  message: string,
): { message: string; choices: Choice<string>[]; default?: string } {
  const choices: Choice<string>[] = options.map((o) => ({
    name: clean(o.text),
    value: o.value,
    ...(o.text !== o.value ? { description: `value: ${clean(o.value)}` } : {}),
  }));
  // an optional choice can be left unanswered, as an optional text field can be left empty
  if (f.optional) choices.push({ name: '(none)', value: '' });
  const preselected = typeof f.value === 'string' && options.some((o) => o.value === f.value) ? f.value : undefined;
  return { message, choices, ...(preselected !== undefined ? { default: preselected } : {}) };
}

/**
 * `io`: whether a person at a terminal is not asked (stdout piped), said first in the hint.
 * `unused`: answers given that no round took so far; the one nearest to the field's name is named
 * (`--answer code=1234` for code1), which a script's author reads as the mistake it is.
 */
function missing(
  f: SupplementalField,
  flag: '--answer' | '--field',
  io: Context['io'],
  unused: string[] = [],
): UsageError {
  const label = clean(f.description || f.name);
  const options = selectOptions(f);
  const choice = options.length > 0 ? `: one of ${clean(describeOptions(options))}` : '';
  const pass =
    flag === '--answer'
      ? `pass --answer ${f.name}=VALUE or --answers FILE`
      : f.masked || f.sensitive
        ? // a secret on the command line is visible in the process list
          `pass --field-stdin ${f.name} < FILE (or --field ${f.name}=VALUE)`
        : `pass --field ${f.name}=VALUE`;
  const typo = unused.find((u) => u !== ALL_CHECKBOXES && !siblings(u, f.name) && nearest(u, [f.name]) !== undefined);
  const given = typo
    ? `; ${flag} ${clean(typo).slice(0, 60)} was given, which names no field asked here: did you mean ${f.name}?`
    : '';
  return new UsageError(
    `no value for the ${flag === '--field' ? 'credentials' : 'supplemental'} field "${f.name}" (${label}${choice}) and no terminal to ask on${given}`,
    { hint: noTerminalHint(io, pass) },
  );
}

/** code1 and code2: two fields of a series (the second of a later round), not one misspelt. */
function siblings(a: string, b: string): boolean {
  const stem = (x: string) => /^(.*?)\d+$/.exec(x)?.[1];
  return stem(a) !== undefined && stem(a) === stem(b);
}

/** inquirer rejects with ExitPromptError on Ctrl-C in raw mode: that is an interrupt (130). */
async function guard<T>(p: Promise<T>, interrupt?: { fired: boolean }): Promise<T> {
  try {
    return await p;
  } catch (err) {
    const name = (err as Error)?.name ?? '';
    if (name === 'ExitPromptError' || name === 'AbortPromptError' || interrupt?.fired)
      throw new InterruptedError('interrupted at a prompt');
    throw err;
  }
}

export function eidLinks(token: string, returnUrl?: string): { app: string; ios?: string } {
  const redirect = returnUrl ? encodeURIComponent(returnUrl) : 'null';
  return {
    app: `${EID_SCHEME}:///?autostarttoken=${encodeURIComponent(token)}&redirect=${redirect}`,
    ...(returnUrl
      ? { ios: `https://${EID_HOST}/?autostarttoken=${encodeURIComponent(token)}&redirect=${redirect}` }
      : {}),
  };
}

/**
 * The QR code of `text` on stderr. One wider than the terminal would wrap into stripes no camera
 * reads: then a line says so instead, and `elsewhere` (when given) where else the code is to be had.
 */
async function qr(ctx: Context, text: string, mode: WalkOptions['qr'], elsewhere?: string): Promise<void> {
  if (mode === 'never' || (mode !== 'always' && !ctx.io.stderrIsTTY)) return;
  const { default: qrt } = await import('qrcode-terminal');
  const rendered = await new Promise<string>((resolve) => qrt.generate(text, { small: true }, resolve));
  const width = Math.max(...rendered.split('\n').map((l) => [...l].length));
  const columns = ctx.io.stderrIsTTY ? (ctx.io.stderr as { columns?: number }).columns : undefined;
  if (typeof columns === 'number' && columns > 0 && width > columns) {
    ctx.io.stderr.write(
      `(the QR code is ${width} columns wide and this terminal ${columns}: widen it to see the code${elsewhere ? `, or ${elsewhere}` : ''})\n`,
    );
    return;
  }
  ctx.io.stderr.write(`${rendered}\n`);
}

async function showEid(ctx: Context, token: string, o: WalkOptions): Promise<void> {
  const links = eidLinks(token, o.returnUrl);
  const w = (s: string) => ctx.io.stderr.write(`${s}\n`);
  // "scan this code" only above a code: without a terminal (a CI log) none is drawn unless --qr
  const drawn = o.qr === 'always' || (o.qr !== 'never' && ctx.io.stderrIsTTY);
  w(drawn ? 'Open your mobile eID app to log in, or scan this code with it:' : 'Open your mobile eID app to log in:');
  w(`  eID link: ${links.app}`);
  if (links.ios) w(`  iOS link: ${links.ios}`);
  await qr(ctx, links.app, o.qr, `get it as a picture: \`bankctl credentials qr${ctx.userFlag()} ${o.id} -O qr.png\``);
}

async function showPayload(ctx: Context, p: ThirdPartyPayload, o: WalkOptions): Promise<void> {
  const w = (s: string) => ctx.io.stderr.write(`${s}\n`);
  const deep = clean(p.ios?.deepLinkUrl);
  const intent = clean(p.android?.intent);
  const link = deep || intent;
  const desktop = clean(p.desktop?.url);
  const scheme = clean(p.ios?.scheme).toLowerCase();
  // a web login (redirect flow) when the iOS scheme is http(s), or absent with an http(s) link; the
  // real service's redirect payloads carry a desktop URL too, which is then the bank's login page
  const web = /^https?:\/\//i.test(link) && (scheme === '' || scheme === 'https' || scheme === 'http');
  if (web) {
    w(`Log in at your bank: ${desktop || link}`);
    await offerToOpen(ctx, desktop || link, o);
  } else if (desktop) {
    // the part of the payload for a person at a computer (the real service sends it)
    w(`Log in on this computer: ${desktop}`);
    await offerToOpen(ctx, desktop, o);
    if (link) w('Or on your phone:');
  } else {
    w(`Open the authentication app to continue${p.downloadTitle ? ` (${clean(p.downloadTitle)})` : ''}:`);
  }
  if (deep) w(`  iOS: ${deep}${p.ios?.appStoreUrl ? `  (App Store: ${clean(p.ios.appStoreUrl)})` : ''}`);
  if (intent)
    w(
      `  Android: ${intent}${p.android?.packageName ? `  (package ${clean(p.android.packageName)}${p.android.requiredMinimumVersion ? `, version ${clean(p.android.requiredMinimumVersion)} or later` : ''})` : ''}`,
    );
  if (p.downloadMessage) w(`  ${clean(p.downloadMessage)}`);
  // the mobile deep link as a QR code, for the phone
  if (link) await qr(ctx, link, o.qr);
}

/**
 * Opens an http(s) URL in the browser when --no-browser was not given and stderr is a terminal (a
 * question would stop the polling while the bank waits, so the offer is the flag).
 */
async function offerToOpen(ctx: Context, url: string, o: WalkOptions): Promise<void> {
  if (!o.browser || !ctx.io.stderrIsTTY || !/^https?:\/\//i.test(url)) return;
  const { openBrowser } = await import('../auth/link.js');
  if (await openBrowser(url, ctx.env)) ctx.io.stderr.write('(opened in your browser)\n');
}
