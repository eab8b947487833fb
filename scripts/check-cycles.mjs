// Fails when any module of src/ imports itself back through a chain of imports (static or dynamic).
// The graph is esbuild's own, so it sees exactly what the bundle sees.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { metafile } = await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts', 'src/sandbox/index.ts'],
  bundle: true,
  write: false,
  metafile: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  outdir: 'out',
  logLevel: 'error',
});
const graph = new Map();
for (const [file, info] of Object.entries(metafile.inputs)) {
  if (!file.startsWith('src/')) continue;
  graph.set(
    file,
    info.imports.map((i) => i.path).filter((p) => p.startsWith('src/')),
  );
}
const cycles = [];
const state = new Map(); // 1 visiting, 2 done
const stack = [];
function visit(file) {
  state.set(file, 1);
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === 1) cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, 2);
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);
if (cycles.length > 0) {
  console.error(`import cycles (${cycles.length}):\n${cycles.map((c) => `  ${c}`).join('\n')}`);
  process.exit(1);
}
console.log(`no import cycles among ${graph.size} modules`);
