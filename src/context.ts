// Everything a command touches comes through the context, built lazily so that --help and
// completion never read config or credentials.
import type { IO } from './io.js';
import { ConfigStore, defaultConfigDir, SETTING_KEYS, type SettingKey } from './config/store.js';
import { Settings, sourceName } from './config/settings.js';
import { runningSandbox } from './config/sandbox-state.js';
import { nearest } from './config/names.js';
import type { HttpClient } from './http/client.js';
import type { TokenManager, UserRef } from './auth/tokens.js';
import type { ApiClient, Caller } from './api/client.js';
import { UsageError } from './errors.js';
import { checkedId } from './ids.js';
import { VERSION } from './version.js';
import type { Prompter } from './prompts/prompter.js';
import { guardIO } from './output/terminal.js';
import { singleLine, stripControl } from './output/sanitize.js';
import { maskUrlPassword } from './config/display.js';
import { OUTPUT_FORMATS, parseSize, settingProblem } from './config/checks.js';

// the judge of setting values lives with the config (config explain and doctor use it too)
export { OUTPUT_FORMATS, parseSize, settingProblem };

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  linkUrl?: string;
  output?: string;
  fields?: string | boolean;
  wide?: boolean;
  jq?: string;
  /** false with --no-pager */
  pager?: boolean;
  yes?: boolean;
  verbose?: boolean;
  quiet?: boolean;
  color?: boolean;
  timeout?: string;
  retries?: string;
  maxResponseSize?: string;
  clientId?: string;
  clientSecret?: string;
  clientSecretStdin?: boolean;
  token?: string;
  connectorToken?: string;
  user?: string;
  externalUser?: string;
  basic?: string;
  caFile?: string;
  pin?: string;
}

export interface Clock {
  now(): number;
}

export interface ContextOptions {
  clock?: Clock;
  prompter?: Prompter;
  /** For tests of the retry schedule. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export class Context {
  globals: GlobalOptions = {};
  /** True once a command handles Ctrl-C itself (see claimInterrupt). */
  interruptClaimed = false;
  /** Set by commands that end without an error but not in success (rare; errors are preferred). */
  exitCode = 0;
  /**
   * The command line of a verb that changes data (`bankctl transfers create`), set before it runs:
   * an output option that fails after it sent a change prints the whole answer (output/render.ts).
   */
  changing?: string;

  /**
   * ` --user ID` (or ` --external-user ID`, and ` --profile P`) when this run's acting user or profile
   * came from a flag: a command a hint names must act for the same user, and a copied command does
   * not inherit flags (the environment and the profile it does).
   */
  userFlag(): string {
    const q = (v: string) => (/^[A-Za-z0-9._:@+=/-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
    let out = '';
    if (typeof this.globals.profile === 'string') out += ` --profile ${q(this.globals.profile)}`;
    if (typeof this.globals.user === 'string') out += ` --user ${q(this.globals.user)}`;
    else if (typeof this.globals.externalUser === 'string') out += ` --external-user ${q(this.globals.externalUser)}`;
    return out;
  }

  /** Whether this run has sent a request that may have changed data (other than GET), answered 2xx. */
  changesSent(): boolean {
    return (this.apiClient?.sent.changes ?? 0) > 0;
  }
  readonly clock: Clock;
  private configStore?: ConfigStore;
  private settingsCache?: Settings;
  private httpClient?: HttpClient;
  private tokenManager?: TokenManager;
  private apiClient?: ApiClient;
  private prompterInstance?: Prompter;
  private stdinSecret?: string;
  private readonly cleanups: Array<() => Promise<void> | void> = [];

  /** The streams, with a terminal guard on those that are terminals (output/terminal.ts). */
  readonly io: IO;

  constructor(
    io: IO,
    private readonly opts: ContextOptions = {},
  ) {
    this.io = guardIO(io);
    this.clock = opts.clock ?? { now: () => Date.now() };
    this.prompterInstance = opts.prompter;
  }

  get env(): Record<string, string | undefined> {
    return this.io.env;
  }

  get verbose(): boolean {
    return Boolean(this.globals.verbose) || isTruthy(this.env.BANKCTL_DEBUG);
  }

  get quiet(): boolean {
    return Boolean(this.globals.quiet);
  }

  get configDir(): string {
    return defaultConfigDir(this.env);
  }

  /** Colour on stderr (notices, spinners, prompts). */
  get color(): boolean {
    return this.colorFor(this.io.stderrIsTTY);
  }

  /**
   * Colour in what goes to stdout (table headers, doctor's marks): that stream's own terminal, so
   * `-o table > file` or `doctor | tee log` run from a terminal get no escape sequences.
   */
  get stdoutColor(): boolean {
    return this.colorFor(this.io.stdoutIsTTY);
  }

  private colorFor(tty: boolean): boolean {
    if (this.globals.color === false) return false;
    if (this.env.NO_COLOR !== undefined && this.env.NO_COLOR !== '') return false;
    // as Node and chalk read it: "0" and "false" turn colour off, anything else forces it on
    if (this.env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(this.env.FORCE_COLOR.trim().toLowerCase());
    // a terminal that says it cannot draw attributes (as chalk's supports-color reads it)
    if (this.env.TERM === 'dumb') return false;
    return tty;
  }

  /**
   * One line for a person, on stderr: network text in it is stripped of control sequences, and a
   * line break in it (a provider's name in "created credentials ... for NAME") is a space, so it
   * cannot draw a line of its own.
   */
  notice(msg: string): void {
    if (!this.quiet) this.io.stderr.write(`${singleLine(msg)}\n`);
  }

  warn(msg: string): void {
    this.io.stderr.write(`warning: ${singleLine(msg)}\n`);
  }

  trace(line: string): void {
    if (this.verbose) this.io.stderr.write(`* ${stripControl(line)}\n`);
  }

  /** The command handles Ctrl-C itself; returns the unregister function of its handler. */
  claimInterrupt(handler: () => void): () => void {
    this.interruptClaimed = true;
    const off = this.io.onInterrupt(handler);
    return () => {
      off();
      this.interruptClaimed = false;
    };
  }

  onCleanup(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  async dispose(): Promise<void> {
    for (const fn of this.cleanups.splice(0).reverse()) await fn();
    await this.httpClient?.close(true);
  }

  async config(): Promise<ConfigStore> {
    this.configStore ??= await ConfigStore.open(this.configDir);
    return this.configStore;
  }

  profileName(): string {
    return this.globals.profile || this.env.BANKCTL_PROFILE || this.configStore?.currentProfile() || 'default';
  }

  /**
   * Set by the commands that save into a profile (auth login, config set) or only show one (config
   * explain, get, list): they may name a profile that is not saved yet.
   */
  allowUnsavedProfile = false;

  async settings(): Promise<Settings> {
    if (this.settingsCache) return this.settingsCache;
    const config = await this.config();
    const profileName = this.globals.profile || this.env.BANKCTL_PROFILE || config.currentProfile();
    if (!this.allowUnsavedProfile) this.requireSavedProfile(config, profileName);
    const g = this.globals;
    const flags: Partial<Record<SettingKey, string>> = {
      'base-url': g.baseUrl,
      'link-url': g.linkUrl,
      output: g.output,
      timeout: g.timeout,
      retries: g.retries,
      'max-response-size': g.maxResponseSize,
      'client-id': g.clientId,
      'client-secret': g.clientSecret ?? this.stdinSecret,
      token: g.token,
      'connector-token': g.connectorToken,
      user: g.user,
      'external-user': g.externalUser,
      basic: g.basic,
      'ca-file': g.caFile,
      pin: g.pin,
    };
    this.settingsFlags = flags;
    this.settingsCache = new Settings(flags, this.env, config.profile(profileName), runningSandbox(this.configDir));
    return this.settingsCache;
  }

  private settingsFlags: Partial<Record<SettingKey, string>> = {};

  /**
   * The connector tokens as the profile and a running sandbox hold them now, read again: a token
   * renewed while a push runs (`rotate-connector-token --save-next`) is found on its 401.
   */
  private freshConnectorTokens(): string[] {
    const config = this.configStore;
    if (!config) return [];
    const profile = config.profile(this.profileName());
    const s = new Settings(this.settingsFlags, this.env, profile, runningSandbox(this.configDir));
    return [this.sendable(s, 'connector-token-next'), this.sendable(s, 'connector-token')].filter((t): t is string =>
      Boolean(t),
    );
  }

  /** Set when BANKCTL_BASE_URL names another service than the profile's own base-url (its tokens stay home). */
  private profileIsElsewhere = false;

  /** A setting's value, unless it is the profile's and the profile's base URL is not this run's. */
  private sendable(s: Settings, key: SettingKey): string | undefined {
    const v = s.get(key);
    return v?.source === 'profile' && this.profileIsElsewhere ? undefined : v?.value;
  }

  /**
   * A profile named by --profile or BANKCTL_PROFILE that was never saved would silently run with
   * the defaults (the local sandbox, the environment's credentials): a typo of "prod" showed the
   * sandbox's data as if it were production's. Like `aws --profile`, that is exit 2 naming the
   * saved ones. `default` always exists, and `config use` only switches to saved profiles; a
   * config.json whose "current" names no saved profile (edited by hand) is refused the same way,
   * naming the file and `config use` rather than an environment variable that is not set.
   */
  requireSavedProfile(config: ConfigStore, name = this.profileName()): void {
    if (name === 'default') return;
    const saved = config.profileNames();
    if (saved.includes(name)) return;
    const shown = /^[A-Za-z0-9._-]{1,64}$/.test(name) ? name : 'NAME';
    const near = nearest(name, saved);
    const quoted = `"${stripControl(name).slice(0, 80)}"`;
    const didYouMean = near ? `; did you mean "${near}"?` : '';
    if (!this.globals.profile && !this.env.BANKCTL_PROFILE)
      throw new UsageError(
        `the current profile ${quoted} ("current" in ${config.file}) is not saved${didYouMean} (saved: ${saved.join(', ')})`,
        {
          hint:
            `switch to a saved one with \`bankctl config use ${near ?? 'default'}\`` +
            (shown === name ? `, or create it with \`bankctl config use ${shown} --create\`` : '') +
            '; --profile NAME picks one for a single command',
        },
      );
    const from = this.globals.profile ? '--profile' : 'BANKCTL_PROFILE';
    throw new UsageError(
      `${from}: no profile named ${quoted} is saved${didYouMean} (saved: ${saved.join(', ')}); ` +
        `create it with \`bankctl auth login --profile ${shown}\` or \`bankctl config set KEY VALUE --profile ${shown}\``,
    );
  }

  /** Forget derived state after a command changed its own credentials (auth login). */
  invalidate(): void {
    this.settingsCache = undefined;
    this.tokenManager = undefined;
    this.apiClient = undefined;
  }

  /**
   * A secret a `--...-stdin` flag reads: the first line of standard input (64 KiB at most are read).
   * On a terminal it is asked for with a masked prompt: read as a stream, it would be echoed in
   * clear and wait for Ctrl-D. Empty is exit 2 naming the flag.
   */
  async readStdinSecret(flag: string, label: string): Promise<string> {
    let value: string;
    if (this.io.stdinIsTTY) {
      const ask = await this.prompter();
      value = await ask.password({ message: `${label} (${flag})`, validate: (v) => (v ? true : 'enter a value') });
    } else {
      let data = '';
      for await (const chunk of this.io.stdin) {
        data += chunk.toString();
        if (data.includes('\n') || data.length > 64 * 1024) break;
      }
      value = data.split(/\r?\n/)[0]!;
    }
    if (!value) throw new UsageError(`${flag}: nothing was read from standard input`);
    return value;
  }

  /** Reads the client secret from stdin once, for --client-secret-stdin. */
  async readSecretFromStdin(): Promise<string> {
    if (this.stdinSecret !== undefined) return this.stdinSecret;
    const secret = (await this.readStdinSecret('--client-secret-stdin', 'Client secret')).trim();
    if (!secret) throw new UsageError('--client-secret-stdin: nothing was read from standard input');
    this.stdinSecret = secret;
    this.settingsCache = undefined;
    return secret;
  }

  async baseUrl(): Promise<string> {
    const v = (await this.settings()).value('base-url')!;
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new UsageError(`base URL "${maskUrlPassword(v)}" is not an http(s) URL`, {
        hint: 'check --base-url, BANKCTL_BASE_URL or `bankctl config get base-url`',
      });
    }
    return v.replace(/\/+$/, '');
  }

  /**
   * --timeout (seconds, more than 0 and at most MAX_TIMEOUT_S) and --retries (a whole number up to
   * MAX_RETRIES): anything else is a usage error naming the allowed range and where the value came
   * from. (A timeout past what a timer holds used to fire at once; a billion retries never ended.)
   */
  async numberSetting(key: 'timeout' | 'retries'): Promise<number> {
    const s = (await this.settings()).get(key)!;
    const problem = settingProblem(key, s.value);
    if (problem) throw new UsageError(`${problem} (from ${sourceName(key, s.source)})`);
    const n = Number(s.value.trim());
    return key === 'timeout' ? Math.max(n, 0.001) : n;
  }

  /** The largest response body read (--max-response-size, BANKCTL_MAX_RESPONSE_SIZE, the profile). */
  async maxResponseSize(): Promise<number> {
    const s = (await this.settings()).get('max-response-size')!;
    const problem = settingProblem('max-response-size', s.value);
    if (problem) throw new UsageError(`${problem} (from ${sourceName('max-response-size', s.source)})`);
    return parseSize(s.value)!;
  }

  /** Text with every secret this run has handled taken out (none has been before the first request). */
  redact(text: string): string {
    return this.httpClient ? this.httpClient.redactor.text(text) : text;
  }

  async http(): Promise<HttpClient> {
    if (this.httpClient) return this.httpClient;
    const baseUrl = await this.baseUrl();
    const timeoutMs = Math.max(1, Math.round((await this.numberSetting('timeout')) * 1000));
    const retries = await this.numberSetting('retries');
    const maxResponseBytes = await this.maxResponseSize();
    const { HttpClient } = await import('./http/client.js');
    this.httpClient = new HttpClient({
      baseUrl,
      timeoutMs,
      retry: { retries },
      maxResponseBytes,
      userAgent: `bankctl/${VERSION} node/${process.versions.node}`,
      trace: this.verbose ? (l) => this.trace(l) : undefined,
      notice: (l) => this.notice(l),
      sleep: this.opts.sleep,
      random: this.opts.random,
      now: () => this.clock.now(),
      transport: await this.transportOptions(),
    });
    const s = await this.settings();
    const redactor = this.httpClient.redactor;
    for (const key of ['client-secret', 'token', 'connector-token', 'connector-token-next'] as const)
      redactor.add(s.value(key));
    const basic = s.value('basic');
    if (basic) redactor.addBasic(basic.slice(0, basic.indexOf(':')), basic.slice(basic.indexOf(':') + 1));
    // a password in the base URL's userinfo
    const password = new URL(baseUrl).password;
    if (password) {
      redactor.add(password);
      redactor.add(safeDecode(password));
    }
    return this.httpClient;
  }

  /** Extra CAs (--ca-file, NODE_EXTRA_CA_CERTS), pins (--pin) and the proxy environment. */
  async transportOptions(): Promise<import('./http/transport.js').TransportOptions> {
    const s = await this.settings();
    const caPems: string[] = [];
    const caFile = s.get('ca-file');
    const { inputReadError, readInputFile } = await import('./fs/read-input.js');
    // each file labelled by where it came from: a profile's setting or the running sandbox's own CA
    // (sandbox start --tls) was called "--ca-file", a flag the user never typed
    const caFrom = (): { from: string; hint?: string } => {
      switch (caFile?.source) {
        case 'env':
          return { from: 'BANKCTL_CA_FILE' };
        case 'profile':
          return {
            from: `profile "${this.profileName()}" ca-file`,
            hint: '`bankctl config set ca-file FILE` names another, `bankctl config unset ca-file` drops it',
          };
        case 'sandbox':
          return {
            from: "the sandbox's CA file",
            hint: 'restart the sandbox to write it again: `bankctl sandbox stop`, then `bankctl sandbox start --tls`',
          };
        default:
          return { from: '--ca-file' };
      }
    };
    for (const [file, { from, hint }] of [
      [caFile?.value, caFrom()],
      [this.env.NODE_EXTRA_CA_CERTS, { from: 'NODE_EXTRA_CA_CERTS' }],
    ] as const) {
      if (!file) continue;
      let pem: string;
      try {
        pem = await readInputFile(file);
      } catch (err) {
        const e = inputReadError(err, file, from);
        e.hint ??= hint;
        throw e;
      }
      if (!pem.includes('-----BEGIN CERTIFICATE-----'))
        throw new UsageError(`${from}: ${file} holds no PEM certificate`, { hint });
      caPems.push(pem);
    }
    const { normalizePins } = await import('./http/transport.js');
    const pins = normalizePins(s.value('pin'));
    for (const p of pins) {
      if (!/^[A-Za-z0-9+/]{43}=$/.test(p))
        throw new UsageError(`--pin: "${p}" is not a base64 SHA-256 (44 characters, ending in "=")`);
    }
    return { caPems, pins, env: this.env };
  }

  async tokens(): Promise<TokenManager> {
    if (this.tokenManager) return this.tokenManager;
    const s = await this.settings();
    const { TokenManager } = await import('./auth/tokens.js');
    this.tokenManager = new TokenManager({
      http: () => this.http(),
      config: await this.config(),
      profileName: this.profileName(),
      baseUrl: await this.baseUrl(),
      clientId: s.value('client-id'),
      clientSecret: s.value('client-secret'),
      now: () => this.clock.now(),
      notice: (m) => this.notice(m),
      trace: (l) => this.trace(l),
      userSource: this.userSource(s),
      clientShadowsSandbox: s.get('client-id')?.source === 'profile' && s.get('base-url')?.source === 'sandbox',
      secretElsewhere: this.secretElsewhere(s, 'client-secret', 'client secret', await this.profileBaseElsewhere(s)),
    });
    return this.tokenManager;
  }

  /**
   * BANKCTL_BASE_URL (left in the shell from another service) when it names another service than
   * the profile's own base-url, with that one: the profile's secrets were stored with its own, and
   * sent to the other they acted on that service with no word.
   */
  private async profileBaseElsewhere(s: Settings): Promise<{ env: string; own: string } | undefined> {
    const base = s.get('base-url');
    if (base?.source !== 'env') return undefined;
    const own = (await this.config()).profile(this.profileName())['base-url'];
    if (!own || own.replace(/\/+$/, '') === base.value.replace(/\/+$/, '')) return undefined;
    return { env: base.value, own };
  }

  /** Why the profile's `key` (`what` in words) must not be sent to `where`; undefined when it may be. */
  private secretElsewhere(
    s: Settings,
    key: SettingKey,
    what: string,
    where: { env: string; own: string } | undefined,
  ): string | undefined {
    if (!where || s.get(key)?.source !== 'profile') return undefined;
    return `BANKCTL_BASE_URL (${maskUrlPassword(where.env)}) is not the base URL of profile "${this.profileName()}" (${maskUrlPassword(where.own)}), whose ${what} would be sent there`;
  }

  /** The profile's ready credentials that BANKCTL_BASE_URL would carry to another service (see above). */
  private async credentialsElsewhere(s: Settings): Promise<Caller['elsewhere']> {
    const where = await this.profileBaseElsewhere(s);
    this.profileIsElsewhere = Boolean(where);
    if (!where) return undefined;
    const token = this.secretElsewhere(s, 'token', 'token', where);
    const basic = this.secretElsewhere(s, 'basic', 'HTTP Basic token', where);
    const connector = this.secretElsewhere(s, 'connector-token', 'connector token', where);
    return token || basic || connector ? { token, basic, connector } : undefined;
  }

  /** Where the acting user comes from when no flag names it: "profile NAME" or "environment". */
  userSource(s: Settings): string | undefined {
    if (this.globals.user || this.globals.externalUser) return undefined;
    const src = (s.get('user')?.value ? s.get('user') : s.get('external-user'))?.source;
    return src === 'profile' ? `profile ${this.profileName()}` : src === 'env' ? 'environment' : undefined;
  }

  async userRef(): Promise<UserRef | undefined> {
    // the flags were checked for control characters where they were read (program.ts, preAction)
    if (this.globals.user) return { userId: this.globals.user };
    if (this.globals.externalUser) return { externalUserId: this.globals.externalUser };
    const s = await this.settings();
    const id = s.value('user');
    if (id) return { userId: checkedId('user id', id) };
    const ext = s.value('external-user');
    return ext ? { externalUserId: checkedId('external user id', ext) } : undefined;
  }

  async api(): Promise<ApiClient> {
    if (this.apiClient) return this.apiClient;
    const s = await this.settings();
    const { ApiClient } = await import('./api/client.js');
    // --user names the acting user: a ready token from BANKCTL_TOKEN or the profile may be another
    // user's, and sending it as is showed that user's data under the one asked for
    const token = s.get('token');
    // (without client credentials no other token can be had: the ready token is sent, as before)
    const userOverToken =
      Boolean(token?.value) &&
      token?.source !== 'flag' &&
      Boolean(this.globals.user || this.globals.externalUser) &&
      Boolean(s.value('client-id') && s.value('client-secret'));
    if (userOverToken)
      this.notice(
        `${token?.source === 'env' ? 'BANKCTL_TOKEN' : `the token of profile "${this.profileName()}"`} is not used for calls as a user: ${this.globals.user ? '--user' : '--external-user'} names the user, and bankctl gets a token for it`,
      );
    const elsewhere = await this.credentialsElsewhere(s);
    this.apiClient = new ApiClient(
      await this.http(),
      () => this.tokens(),
      {
        token: s.value('token'),
        basic: s.value('basic'),
        connectorToken: s.value('connector-token'),
        connectorTokenNext: this.sendable(s, 'connector-token-next'),
        freshConnectorTokens: () => this.freshConnectorTokens(),
        user: await this.userRef(),
        userOverToken,
        elsewhere,
      },
      (m) => this.notice(m),
    );
    return this.apiClient;
  }

  /** The output format: -o, BANKCTL_OUTPUT, the profile, else table on a TTY and json otherwise. */
  async outputFormat(): Promise<OutputFormat> {
    const explicit = this.globals.output ?? this.env.BANKCTL_OUTPUT;
    if (this.globals.jq !== undefined) {
      // --jq implies json (ndjson applies it line by line)
      if (this.globals.output && this.globals.output !== 'json' && this.globals.output !== 'ndjson')
        throw new UsageError(`--jq filters json output, not -o ${this.globals.output}`, {
          hint: 'drop -o, or use -o ndjson to filter line by line',
        });
      return this.globals.output === 'ndjson' || (!this.globals.output && explicit === 'ndjson') ? 'ndjson' : 'json';
    }
    let value = explicit;
    // a profile that cannot be read (never saved, a bad config file) is the command's own error,
    // said where it reads its settings: blamed here, `doctor` stopped with exit 2 in one format and
    // reported it as a failed check (exit 9) in another
    if (!value && this.configStore) value = (await this.settings().catch(() => undefined))?.get('output')?.value;
    if (!value) return this.io.stdoutIsTTY ? 'table' : 'json';
    if (!(OUTPUT_FORMATS as readonly string[]).includes(value)) {
      throw new UsageError(`unknown output format "${value}"`, { hint: `use one of ${OUTPUT_FORMATS.join(', ')}` });
    }
    return value as OutputFormat;
  }

  async prompter(): Promise<Prompter> {
    if (!this.prompterInstance) {
      const { createPrompter } = await import('./prompts/create.js');
      this.prompterInstance = createPrompter(this.io, this.color);
    }
    return this.prompterInstance;
  }
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

function isTruthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

export function isSettingKey(k: string): k is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(k);
}
