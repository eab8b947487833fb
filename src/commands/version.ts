import type { Command } from 'commander';
import { serverVersion } from '../api/general.js';
import type { Context } from '../context.js';
import { withHint } from '../errors.js';
import { render } from '../output/render.js';
import { VERSION } from '../version.js';
import { examples } from './util.js';

/** `version`: fills in the `version` command src/program.ts made (with its description). */
export function registerVersion(version: Command, ctx: Context): void {
  const cmd = version.action(async () => {
    const out: Record<string, unknown> = { client: VERSION, node: process.versions.node };
    // the settings are the user's to get right (a bad --timeout is exit 2 here as anywhere); only
    // the request may fail, and then the server is shown as unreachable
    const api = await ctx.api();
    try {
      out.server = (await serverVersion(api, { timeoutMs: 3000 })).version;
    } catch (err) {
      out.server = null;
      // with its hint: an untrusted certificate names --ca-file here as in any other command
      ctx.notice(`server version unavailable: ${withHint(err)}`);
    }
    // the URL asked, reached or not: "unreachable" beside an empty base URL left out what to check
    out.baseUrl = api.http.baseUrl;
    const format = await ctx.outputFormat();
    if (format === 'table') {
      const server = out.server as Record<string, unknown> | null;
      await render(ctx, {
        client: VERSION,
        server: server ? serverLine(server) : 'unreachable',
        baseUrl: out.baseUrl,
      });
      return;
    }
    await render(ctx, out);
  });
  examples(cmd, ['bankctl version', 'bankctl version -o json | jq -r .server.version']);
}

/** The server's version as the table shows it: what it sent, whatever of commit and date is missing. */
function serverLine(server: Record<string, unknown>): string {
  const ms = typeof server.date === 'number' ? server.date : Number.NaN;
  const date = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : undefined;
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const details = [
    text(server.commit) === undefined ? undefined : `commit ${text(server.commit)}`,
    date ?? text(server.date),
  ].filter((x) => x !== undefined);
  return `${text(server.version) ?? '?'}${details.length ? ` (${details.join(', ')})` : ''}`;
}
