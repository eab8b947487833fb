// What differs when bankctl runs as the single executable (dist/sea/bankctl, `npm run build:sea`):
// there is no bin/bankctl.js and no dist/ beside it, so files the bundle would load from disk are
// assets embedded in the executable, and the executable itself is the command to re-run.
import { createRequire } from 'node:module';

type Sea = typeof import('node:sea');

let sea: Sea | null | undefined;
function seaModule(): Sea | null {
  if (sea === undefined) {
    try {
      sea = createRequire(import.meta.url)('node:sea') as Sea;
    } catch {
      sea = null; // a node without single executable support (before 20.12)
    }
  }
  return sea;
}

/** Whether this process is the single executable. */
export function isSingleExecutable(): boolean {
  return seaModule()?.isSea() ?? false;
}

/**
 * An embedded ES module (an asset of the single executable, e.g. 'scan-worker.mjs') as a URL that
 * a worker thread can run; undefined outside the single executable or when it has no such asset.
 * The module is a bundle that imports nothing but node's built-ins.
 */
export function embeddedModuleUrl(name: string): URL | undefined {
  const s = seaModule();
  if (!s?.isSea()) return undefined;
  try {
    const code = s.getAsset(name, 'utf8');
    return new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  } catch {
    return undefined;
  }
}

/**
 * The arguments that, after process.execPath, start this bankctl again: none for the single
 * executable, bin/bankctl.js (found by binPath) otherwise.
 */
export function selfArgs(binPath: () => string): string[] {
  return isSingleExecutable() ? [] : [binPath()];
}
