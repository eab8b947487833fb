// Bundles src/ into dist/ with esbuild. Code splitting keeps the heavy, rarely used parts
// (the sandbox, prompts, QR codes) in chunks that are loaded only by the commands that need them,
// so `bankctl --version` and `--help` stay close to bare `node` start-up time.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// dist/ is not emptied first: parallel test runs may be spawning bin/bankctl.js from it.
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
