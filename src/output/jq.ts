// --jq EXPR: the real jq (jq 1.7's WebAssembly build, npm jq-wasm), loaded only when --jq is given
// so that start-up does not pay for it. Strings come out raw (as `gh --jq` prints them); a jq
// error is a usage error (exit 2) with jq's own message.
import { UsageError } from '../errors.js';

type Raw = (data: string, filter: string, flags?: string[]) => Promise<string>;
interface JqInstance {
  raw: (data: string, filter: string, flags: string[]) => string | Promise<string>;
}
type Factory = () => Promise<JqInstance>;
let factoryFn: Promise<Factory> | undefined;
let instance: Promise<JqInstance> | undefined;
let runs = 0;
/**
 * jq-wasm's module runs jq's main once per call and some of jq's state is never freed: about the
 * 310th call on one instance aborts ("memory access out of bounds", "Unknown function type"),
 * whatever the input's size. `-o ndjson --jq` runs jq once per item (and `webhooks listen --jq`
 * once per event), so `transactions list --all -o ndjson --jq .id` stopped at 300 lines with exit 2.
 * A fresh instance (about 50 ms) after this many calls keeps every call well under that.
 */
export const RUNS_PER_INSTANCE = 100;

async function jqRaw(): Promise<Raw> {
  // jq-wasm's Emscripten loader reads CommonJS's __dirname, which the bundled ES module lacks:
  // a free identifier, so a global one serves (the wasm itself is inlined in the loader)
  const g = globalThis as { __dirname?: string };
  g.__dirname ??= process.cwd();
  // the Emscripten factory itself (jq-wasm's index keeps one instance for the process's life)
  factoryFn ??= import('jq-wasm/dist/build/jq.js').then((m) => {
    const mod = m as unknown as { default: Factory };
    return mod.default;
  });
  const factory = await factoryFn;
  return async (data, filter, flags = []) => {
    if (instance === undefined || runs >= RUNS_PER_INSTANCE) {
      instance = factory();
      runs = 0;
    }
    runs++;
    const jq = await instance;
    return jq.raw(data, filter, flags);
  };
}

/** jq's message for a failure, one line per line it wrote. */
function jqMessage(err: unknown): string[] {
  return String((err as Error).message ?? err)
    .replace(/^Failed to execute raw query: /, '')
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
}

/**
 * jq's compile error for EXPR (a syntax error, an unknown function or variable), found without
 * running it: a verb that changes data checks its --jq before sending anything. undefined when it
 * compiles. The check compiles EXPR inside a branch jq never takes (so a filter that would loop on
 * any input does not run); jq's message is then taken from EXPR itself, which does not run either,
 * since it does not compile.
 */
export async function jqCompileProblem(expr: string): Promise<string | undefined> {
  const raw = await jqRaw();
  const compileError = (lines: string[]) => lines.some((l) => /compile error/.test(l));
  try {
    await raw('null', `if false then (\n${expr}\n) else empty end`, ['-r']);
    return undefined;
  } catch (err) {
    const wrapped = jqMessage(err);
    if (!compileError(wrapped)) return undefined;
    try {
      await raw('null', expr, ['-r', '-n']);
    } catch (own) {
      const lines = jqMessage(own);
      if (compileError(lines)) return lines.join('; ');
    }
    return wrapped.join('; ');
  }
}

/**
 * The output of `jq -r [-c] EXPR` on this JSON text, ending in a newline unless empty. What jq
 * writes to its stderr is an error (exit 2), also after some output (`.[] | .id, error("x")`: jq
 * prints the first id, then fails; the bundle's jq-wasm hands both over, scripts/build.mjs), so a
 * filter that fails half-way never reads as a whole answer. Lines that are all `debug` output are
 * not an error: they go to `debugOut` (jq's stderr) beside the output, exit 0 as with jq.
 */
export async function runJq(
  json: string,
  expr: string,
  compact: boolean,
  debugOut?: (text: string) => void,
): Promise<string> {
  const raw = await jqRaw();
  // jq-wasm's exit handler sets process.exitCode to jq's status (5 after an error): not ours
  const exitCode = process.exitCode;
  try {
    return lines(await raw(json, expr, compact ? ['-r', '-c'] : ['-r']));
  } catch (err) {
    const messages = jqMessage(err);
    const output = (err as { output?: unknown }).output;
    const debug = messages.filter((l) => l.startsWith('["DEBUG:",'));
    if (debug.length > 0) debugOut?.(`${debug.join('\n')}\n`);
    if (debug.length === messages.length) return typeof output === 'string' ? lines(output) : '';
    const errors = messages.filter((l) => !l.startsWith('["DEBUG:",'));
    const after = typeof output === 'string' && output !== '' ? ' (after some output, not shown)' : '';
    throw new UsageError(`--jq: ${errors.join('; ')}${after}`);
  } finally {
    process.exitCode = exitCode;
  }
}

const lines = (out: string): string => (out === '' || out.endsWith('\n') ? out : `${out}\n`);
