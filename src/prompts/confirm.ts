// Guardrails for operators. A destructive command (users delete, credentials delete, auth
// revoke-all, consents delete, connector users/accounts/transactions delete, webhooks delete,
// sandbox reset) shows what it will delete and asks on a terminal; without a terminal it needs
// --yes (exit 2 naming --yes). A protected profile (`config set protected true`) makes every
// command that changes data ask for the profile's name to be typed, and refuse without --yes
// elsewhere. The stable entry points: confirmDestructive, requireYes, confirmProtected.
import { protects } from '../config/checks.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { canPrompt } from '../io.js';
import { noTerminalHint } from './prompter.js';
import { singleLine } from '../output/sanitize.js';

export interface Destruction {
  /** What the command does, as a phrase: "delete user 6f00d8… and all of their data". */
  action: string;
  /** What will be deleted, one fact a line: "market: SE", "provider: se-test-password". */
  details?: string[];
}

/** Whether the profile in use is protected (`config set protected true`). */
export async function profileIsProtected(ctx: Context): Promise<boolean> {
  return protects((await ctx.config()).profile(ctx.profileName()).protected);
}

/** Without a terminal to ask on, --yes must be there: exit 2 naming --yes. */
export function requireYes(ctx: Context, action: string): boolean {
  if (ctx.globals.yes) return true;
  if (!canPrompt(ctx.io)) {
    // the message names --yes already: a hint only to say why a terminal at hand is not asked on
    const hint = noTerminalHint(ctx.io, 'pass --yes', '');
    throw new UsageError(
      `${action}: refusing without --yes (there is no terminal to confirm on)`,
      hint ? { hint } : {},
    );
  }
  return false;
}

/**
 * Shows what will be deleted and asks (a protected profile: asks for its name to be typed).
 * Resolves when confirmed or --yes; otherwise a usage error saying nothing was done.
 */
export async function confirmDestructive(ctx: Context, d: Destruction): Promise<void> {
  if (requireYes(ctx, d.action)) return;
  const err = ctx.io.stderr;
  err.write(`This will ${singleLine(d.action)}:\n`);
  for (const line of d.details ?? []) err.write(`  ${singleLine(line)}\n`);
  if (typed.has(ctx)) return;
  if (await profileIsProtected(ctx)) return typeProfileName(ctx, d.action);
  const ok = await (await ctx.prompter()).confirm({ message: 'Continue?', default: false });
  if (!ok) throw new UsageError(`not confirmed: nothing was done (${d.action})`);
}

/** Contexts whose protected profile's name was typed already (one question per command). */
const typed = new WeakSet<Context>();

async function typeProfileName(ctx: Context, action: string): Promise<void> {
  if (typed.has(ctx)) return;
  const name = ctx.profileName();
  const answer = await (
    await ctx.prompter()
  ).input({ message: `Profile "${name}" is protected. Type its name to ${action}:` });
  if (answer.trim() !== name) throw new UsageError(`"${answer.trim()}" is not "${name}": nothing was done`);
  typed.add(ctx);
}

/** A command that changes data against a protected profile: the profile's name typed, or --yes. */
export async function confirmProtected(ctx: Context, action: string, changes = 'changes data'): Promise<void> {
  if (!(await profileIsProtected(ctx))) return;
  const name = ctx.profileName();
  if (ctx.globals.yes) return;
  if (!canPrompt(ctx.io))
    throw new UsageError(`profile "${name}" is protected: ${action} ${changes}; refusing without --yes`, {
      hint: noTerminalHint(ctx.io, 'pass --yes to confirm'),
    });
  await typeProfileName(ctx, action);
}

/** Verbs that change data (the protected-profile check runs before them). */
export const MUTATING_VERBS = new Set([
  'create',
  'delete',
  'update',
  'push',
  'batch',
  'supplement',
  'refresh',
  'authenticate',
  'connect',
  'revoke-all',
  'archive',
  'create-one-off',
  'create-recurring',
  'reset',
  'execute',
  'update-link',
  // they change the profile's own credentials (rotate also the service's connector token)
  'login',
  'logout',
  'rotate-connector-token',
]);

/** The profile and base URL a destructive command acts on, as detail lines. */
export async function where(ctx: Context): Promise<string[]> {
  if (!canPrompt(ctx.io) || ctx.globals.yes) return [];
  const base = await ctx.baseUrl().catch(() => '');
  return [`profile: ${ctx.profileName()}`, ...(base ? [`base URL: ${base}`] : [])];
}

/** The credentials' provider and status, when they can be read (only asked on a terminal). */
export async function credentialsFacts(ctx: Context, id: string): Promise<string[]> {
  if (!canPrompt(ctx.io) || ctx.globals.yes) return [];
  try {
    const { getCredentials } = await import('../api/credentials.js');
    const c = await getCredentials(await ctx.api(), id);
    return [`provider: ${String(c.providerName)}`, `status: ${String(c.status)}`];
  } catch {
    return [];
  }
}
