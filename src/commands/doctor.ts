import { statSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { ApiError, FlowFailedError } from '../errors.js';
import { examples, parseIntArg } from './util.js';

export const DEFAULT_LISTEN_PORT = 8080;

interface Check {
  check: string;
  status: 'ok' | 'fail' | 'skip';
  detail: string;
}

const MAX_SKEW_MS = 60_000;

/** `doctor`: fills in the `doctor` command src/program.ts made (with its description). */
export function registerDoctor(doctor: Command, ctx: Context): void {
  const cmd = doctor
    .option('--listen-port <port>', 'the webhook listener port to check', String(DEFAULT_LISTEN_PORT))
    .action(async (o: { listenPort: string }) => {
      const checks: Check[] = [];
      const add = (check: string, status: Check['status'], detail: string) => checks.push({ check, status, detail });

      // 1. config file
      let settingsOk = true;
      try {
        const config = await ctx.config();
        let mode: number | undefined;
        try {
          mode = statSync(config.file).mode & 0o777;
        } catch {
          /* missing */
        }
        if (mode === undefined) add('config file', 'ok', `none yet at ${config.file} (defaults in use)`);
        else {
          config.profile(ctx.profileName());
          if (mode & 0o077)
            add(
              'config file',
              'fail',
              `${config.file} was readable by others (mode ${mode.toString(8)}); bankctl has now tightened it to 600`,
            );
          else add('config file', 'ok', `${config.file} readable and private (profile ${ctx.profileName()})`);
        }
      } catch (err) {
        settingsOk = false;
        add('config file', 'fail', (err as Error).message);
      }
      if (!settingsOk) return finish(ctx, checks);

      const settings = await ctx.settings();
      let baseUrl: string;
      try {
        baseUrl = await ctx.baseUrl();
      } catch (err) {
        add('base URL', 'fail', (err as Error).message);
        return finish(ctx, checks);
      }
      const http = await ctx.http();
      const proxy = http.proxyFor(baseUrl);
      add('proxy', 'ok', proxy ? `requests to ${new URL(baseUrl).host} go through ${proxy}` : 'none in use');

      // 2-4. reachability, TLS, clock
      let reachable = false;
      try {
        const started = ctx.clock.now();
        const res = await http.request<Record<string, unknown>>({
          method: 'GET',
          path: '/version',
          retries: 0,
          timeoutMs: 5000,
        });
        reachable = true;
        const v = res.data ?? {};
        add(
          'base URL',
          'ok',
          `${baseUrl} answers (server ${String(v.version ?? '?')}, ${ctx.clock.now() - started} ms)`,
        );
        if (baseUrl.startsWith('https:')) {
          const pins = settings.value('pin');
          add(
            'TLS',
            'ok',
            `certificate valid${settings.value('ca-file') ? ' (with the extra CA file)' : ''}${pins ? ', pin matches' : ''}`,
          );
        } else add('TLS', 'skip', 'plain http (the real service is https only)');
        const date = res.headers.date;
        const serverMs = typeof date === 'string' ? Date.parse(date) : NaN;
        if (Number.isNaN(serverMs)) add('clock', 'skip', 'the server sent no Date header');
        else {
          const skew = ctx.clock.now() - serverMs;
          const text = `${skew >= 0 ? '+' : ''}${(skew / 1000).toFixed(1)} s against the server`;
          add(
            'clock',
            Math.abs(skew) > MAX_SKEW_MS ? 'fail' : 'ok',
            Math.abs(skew) > MAX_SKEW_MS ? `${text}: token expiry will be misjudged; fix the system clock` : text,
          );
        }
      } catch (err) {
        const msg = (err as Error).message;
        add('base URL', 'fail', msg);
        if (baseUrl.startsWith('https:') && /TLS|certificate|pin/i.test(msg))
          add('TLS', 'fail', (err as { hint?: string }).hint ?? msg);
      }

      // 5. client credentials
      if (!settings.value('client-id') || !settings.value('client-secret'))
        add('client credentials', 'skip', 'not configured (`bankctl auth login`)');
      else if (!reachable) add('client credentials', 'skip', 'the service is not reachable');
      else {
        try {
          const tm = await ctx.tokens();
          await tm.requestClientToken(['authorization:grant']);
          add(
            'client credentials',
            'ok',
            `client ${settings.value('client-id')} accepted (${settings.get('client-id')!.source})`,
          );
        } catch (err) {
          if (err instanceof ApiError && err.status === 400)
            add(
              'client credentials',
              'ok',
              `client ${settings.value('client-id')} accepted (it may not hold authorization:grant)`,
            );
          else add('client credentials', 'fail', (err as Error).message);
        }
      }

      // 6. connector token
      const connectorToken = settings.value('connector-token');
      if (!connectorToken) add('connector token', 'skip', 'not configured');
      else if (!reachable) add('connector token', 'skip', 'the service is not reachable');
      else {
        try {
          await http.request({
            method: 'GET',
            path: '/connector/webhooks',
            auth: { scheme: 'Token', token: connectorToken },
            retries: 0,
          });
          add('connector token', 'ok', `accepted (${settings.get('connector-token')!.source})`);
        } catch (err) {
          if (err instanceof ApiError && (err.status === 401 || err.status === 403))
            add('connector token', 'fail', err.message);
          else add('connector token', 'skip', `could not be verified: ${(err as Error).message}`);
        }
      }

      // 7. webhook listener port
      const port = parseIntArg(o.listenPort, '--listen-port', { min: 1, max: 65535 })!;
      const free = await new Promise<string | undefined>((resolve) => {
        const srv = createServer();
        srv.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(undefined)));
      });
      add(
        'webhook listener port',
        free ? 'fail' : 'ok',
        free ? `port ${port} is not free (${free}); use \`webhooks listen --port\`` : `port ${port} is free`,
      );

      return finish(ctx, checks);
    });
  examples(cmd, ['bankctl doctor', 'bankctl doctor --profile prod -o json']);
}

async function finish(ctx: Context, checks: Check[]): Promise<void> {
  const format = ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'text');
  if (format === 'json' || format === 'ndjson') {
    const { render } = await import('../output/render.js');
    await render(ctx, checks);
  } else {
    const mark = { ok: ctx.color ? '\x1b[32m✓\x1b[0m' : '✓', fail: ctx.color ? '\x1b[31m✗\x1b[0m' : '✗', skip: '-' };
    for (const c of checks) ctx.io.stdout.write(`${mark[c.status]} ${c.check}: ${c.detail}\n`);
  }
  const failed = checks.filter((c) => c.status === 'fail');
  if (failed.length > 0)
    throw new FlowFailedError(
      `${failed.length} check${failed.length > 1 ? 's' : ''} failed: ${failed.map((c) => c.check).join(', ')}`,
    );
}
