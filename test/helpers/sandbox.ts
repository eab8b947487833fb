// A sandbox on port 0 per test file, and the environment that points the CLI at it.
import { Agent, fetch } from 'undici';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { SandboxOptions } from '../../src/sandbox/context.js';
import { removeDir, tempDir } from './cli.js';

export interface TestEnv {
  sandbox: Sandbox;
  configDir: string;
  /** BANKCTL_* variables for the CLI: base URL, client credentials, config dir. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestEnv> {
  const sandbox = await startSandbox({ port: 0, authDelayMs: 5, ...opts });
  const configDir = tempDir();
  return {
    sandbox,
    configDir,
    env: {
      BANKCTL_CONFIG_DIR: configDir,
      BANKCTL_BASE_URL: sandbox.baseUrl,
      BANKCTL_CLIENT_ID: sandbox.clientId,
      BANKCTL_CLIENT_SECRET: sandbox.clientSecret,
      BANKCTL_CONNECTOR_TOKEN: sandbox.connectorToken,
      BANKCTL_RETRIES: '0',
    },
    async close() {
      await sandbox.close();
      removeDir(configDir);
    },
  };
}

/** Raw HTTP against the sandbox, for asserting wire behaviour. */
/**
 * A connection per request: the sandbox closes a connection idle for 5 s, and a request that went out
 * on one just as it closed failed with ECONNRESET on a loaded machine (a test's fault, not the sandbox's).
 */
const freshConnections = new Agent({ pipelining: 0 });

export async function raw(
  base: string,
  method: string,
  path: string,
  opts: {
    headers?: Record<string, string>;
    body?: string | Buffer;
    json?: unknown;
    form?: Record<string, string>;
  } = {},
): Promise<{ status: number; headers: Headers; text: string; json: () => any }> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | Buffer | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  }
  if (opts.form) {
    body = new URLSearchParams(opts.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  const res = await fetch(base + path, { method, headers, body, dispatcher: freshConnections });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** A client token with these scopes, straight from the token endpoint. */
export async function clientToken(sb: Sandbox, scopes: string[]): Promise<string> {
  const r = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/token', {
    form: {
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
      grant_type: 'client_credentials',
      scope: scopes.join(','),
    },
  });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${r.text}`);
  return r.json().access_token;
}

/** Creates a user and returns a user token with these scopes (grant + exchange). */
export async function userWithToken(
  sb: Sandbox,
  scopes: string[],
  market = 'SE',
): Promise<{ userId: string; token: string }> {
  const ct = await clientToken(sb, ['user:create', 'authorization:grant']);
  const created = await raw(sb.baseUrl, 'POST', '/api/v1/user/create', {
    headers: { authorization: `Bearer ${ct}` },
    json: { market, locale: market === 'SE' ? 'sv_SE' : 'en_US' },
  });
  if (created.status !== 200) throw new Error(`user/create: ${created.status} ${created.text}`);
  const userId = created.json().user_id as string;
  const g = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/authorization-grant', {
    headers: { authorization: `Bearer ${ct}` },
    form: { user_id: userId, scope: scopes.join(',') },
  });
  if (g.status !== 200) throw new Error(`grant: ${g.status} ${g.text}`);
  const t = await raw(sb.baseUrl, 'POST', '/api/v1/oauth/token', {
    form: {
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
      grant_type: 'authorization_code',
      code: g.json().code,
    },
  });
  if (t.status !== 200) throw new Error(`exchange: ${t.status} ${t.text}`);
  return { userId, token: t.json().access_token };
}
