// --jq EXPR: the real jq (jq 1.7's WebAssembly build, npm jq-wasm), loaded only when --jq is given
// so that start-up does not pay for it. Strings come out raw (as `gh --jq` prints them); a jq
// error is a usage error (exit 2) with jq's own message.
import { UsageError } from '../errors.js';

type Raw = (data: string, filter: string, flags?: string[]) => Promise<string>;
let rawFn: Promise<Raw> | undefined;

async function jqRaw(): Promise<Raw> {
  // jq-wasm's Emscripten loader reads CommonJS's __dirname, which the bundled ES module lacks:
  // a free identifier, so a global one serves (the wasm itself is inlined in the loader)
  const g = globalThis as { __dirname?: string };
  g.__dirname ??= process.cwd();
  rawFn ??= import('jq-wasm').then((m) => {
    const mod = m as unknown as { raw?: Raw; default?: { raw: Raw } };
    return mod.raw ?? mod.default!.raw;
  });
  return rawFn;
}

/**
 * The output of `jq -r [-c] EXPR` on this JSON text, ending in a newline unless empty. jq-wasm
 * reports what jq wrote to its stderr as an error when nothing went to stdout; lines that are all
 * `debug` output are not one: they go to `debugOut` (jq's stderr) and the answer is empty, exit 0
 * as with jq. When there is output, jq-wasm drops the debug lines (README, spec gaps).
 */
export async function runJq(
  json: string,
  expr: string,
  compact: boolean,
  debugOut?: (text: string) => void,
): Promise<string> {
  const raw = await jqRaw();
  try {
    const out = await raw(json, expr, compact ? ['-r', '-c'] : ['-r']);
    return out === '' || out.endsWith('\n') ? out : `${out}\n`;
  } catch (err) {
    const lines = String((err as Error).message ?? err)
      .replace(/^Failed to execute raw query: /, '')
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (lines.length > 0 && lines.every((l) => l.startsWith('["DEBUG:",'))) {
      debugOut?.(`${lines.join('\n')}\n`);
      return '';
    }
    throw new UsageError(`--jq: ${lines.join('; ')}`);
  }
}
