// What the test-bench verbs of `sandbox` share: the client of the sandbox, refused (exit 2) when the
// profile points at something that is not one, and reading an input file or stdin. (Destructive verbs
// confirm with src/prompts/confirm.ts, as every other noun's.)
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';

/** The client, once the base URL answered as a bankctl sandbox. */
export async function sandboxApi(ctx: Context, what: string): Promise<ApiClient> {
  const api = await ctx.api();
  const baseUrl = await ctx.baseUrl();
  // the sandbox this config directory runs needs no probe (which the request log would show)
  const { runningSandbox } = await import('../../config/sandbox-state.js');
  if (runningSandbox(ctx.configDir)?.baseUrl === baseUrl) return api;
  const { requireSandbox } = await import('../../api/sandbox.js');
  await requireSandbox(api, what, baseUrl);
  return api;
}

/** A file's text, or stdin's for "-", without a leading byte order mark; a failure is a one-line usage error naming the flag. */
export async function readInput(ctx: Context, file: string, flag: string): Promise<string> {
  const { inputReadError, readInputFile, readStreamText } = await import('../../fs/read-input.js');
  const { resolve } = await import('node:path');
  try {
    return await (file === '-' ? readStreamText(ctx.io.stdin) : readInputFile(resolve(ctx.io.cwd, file)));
  } catch (err) {
    throw inputReadError(err, file === '-' ? 'stdin' : file, flag);
  }
}
