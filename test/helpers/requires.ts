// Tests that need something outside node_modules: a system tool (chromium, pdfinfo, tmux, script)
// or the shared reference files next to the repository (../shared/reference). On a machine without
// it they are skipped with a one-line reason; under CI (CI=true), where .ci/run installs the tools
// and ../shared is present, a missing requirement is a failure, so CI always runs everything.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './cli.js';

export interface Requirements {
  /** Executables looked up on PATH. */
  tools?: string[];
  /** Files of the shared reference folder (../shared/reference/<name>). */
  shared?: string[];
}

/** Other names a tool goes by (Debian's chromium is `chromium`, Ubuntu's `chromium-browser`). */
const ALIASES: Record<string, string[]> = {
  chromium: ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'],
};

/** The shared folder next to the repository (BANKCTL_SHARED_DIR overrides it). */
export const SHARED_DIR = process.env.BANKCTL_SHARED_DIR ?? join(ROOT, '..', 'shared');

export function sharedReference(name: string): string {
  return join(SHARED_DIR, 'reference', name);
}

/** The executable's path on PATH, or undefined. */
export function toolPath(name: string): string | undefined {
  for (const candidate of ALIASES[name] ?? [name]) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (!dir) continue;
      const file = join(dir, candidate);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** What is missing, as one line, or undefined when everything is there. */
export function missing(req: Requirements): string | undefined {
  const gone: string[] = [];
  for (const t of req.tools ?? []) if (!toolPath(t)) gone.push(`${t} (not on PATH)`);
  for (const f of req.shared ?? []) {
    const path = sharedReference(f);
    if (!existsSync(path)) gone.push(`${join('..', 'shared', 'reference', f)} (not found)`);
  }
  return gone.length > 0 ? `needs ${gone.join(', ')}` : undefined;
}

export const underCI = (): boolean => {
  const v = process.env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
};

export interface Gate {
  /** Why the tests cannot run here, or undefined. */
  reason: string | undefined;
  describe: (name: string, fn: () => void) => void;
  /** describe.concurrent */
  concurrent: (name: string, fn: () => void) => void;
  test: (name: string, fn: () => unknown, timeout?: number) => void;
}

const announced = new Set<string>();
/** One line per test file and reason. */
function announce(reason: string): void {
  const path = expect.getState().testPath;
  const file = path ? relative(ROOT, path) : '';
  if (announced.has(`${file}\0${reason}`)) return;
  announced.add(`${file}\0${reason}`);
  process.stderr.write(`skipped: ${file ? `${file}: ` : ''}${reason}\n`);
}

/**
 * The describe/test to use for tests that need these things: the ordinary ones when everything is
 * there; otherwise skipped ones (with the reason in their name and on stderr), or under CI one
 * failing test that names what is missing.
 */
export function requires(req: Requirements): Gate {
  const reason = missing(req);
  if (!reason)
    return {
      reason,
      describe: (n, fn) => describe(n, fn),
      concurrent: (n, fn) => describe.concurrent(n, fn),
      test: (n, fn, t) => test(n, fn, t),
    };
  if (underCI()) {
    const fail = (n: string) =>
      test(`${n}: has what it needs`, () => {
        throw new Error(`CI=true and this test ${reason}: .ci/run installs the tools; ../shared must be present`);
      });
    const failing = (n: string) => describe(n, () => fail(n));
    return { reason, describe: failing, concurrent: failing, test: (n) => fail(n) };
  }
  const skipped = (n: string, fn: () => void) => {
    announce(reason);
    describe.skip(`${n} [skipped: ${reason}]`, fn);
  };
  return {
    reason,
    describe: skipped,
    concurrent: skipped,
    test: (n, fn, t) => {
      announce(reason);
      test.skip(`${n} [skipped: ${reason}]`, fn, t);
    },
  };
}
