// Bundles src/ into dist/ with esbuild. Code splitting keeps the heavy, rarely used parts
// (the sandbox, prompts, QR codes) in chunks that are loaded only by the commands that need them,
// so `bankctl --version` and `--help` stay close to bare `node` start-up time.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts', 'scan-worker': 'src/push/scan-worker.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies are bundled too: one parsed file per chunk instead of hundreds of small modules
  // resolved at start-up (undici and conf alone cost ~70 ms each when loaded from node_modules).
  // CommonJS dependencies inside an ES module need a real require for node's built-ins.
  banner: {
    js: "import { createRequire as __bankctlRequire } from 'node:module'; const require = __bankctlRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
