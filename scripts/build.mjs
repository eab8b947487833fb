// Bundles src/ into dist/ with esbuild. Code splitting keeps the heavy, rarely used parts
// (the sandbox, prompts, QR codes) in chunks that are loaded only by the commands that need them,
// so `bankctl --version` and `--help` stay close to bare `node` start-up time.
//
// Every runtime dependency is bundled, so the published package needs none of node_modules at run
// time (they are all devDependencies); scripts/notices.mjs writes their licences next to the bundle.
//
// `node scripts/build.mjs --sea` (npm run build:sea) also builds the single executable
// dist/sea/bankctl: one CommonJS bundle of the whole CLI (bin/bankctl.js and src/, with
// src/single-executable.ts for what differs) and the scan worker as an embedded asset, in a copy
// of this node binary (Node's single executable application support: --experimental-sea-config,
// then postject). `--sea-only <dir>` builds just the executable, into <dir>, leaving dist/ alone.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeNotices } from './notices.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The worker thread of the connector push's first pass: wherever the push engineer keeps it.
const SCAN_WORKER = ['src/push/scan-worker.ts', 'src/flows/scan-worker.ts'].find((f) => existsSync(`${root}/${f}`));

/**
 * jq-wasm's Emscripten glue feeds stdin one byte at a time as `stdinBuffer = stdinBuffer.slice(1)`
 * and grows stdout and stderr by copying them for every byte: quadratic, so `--jq` over a list of
 * 1,000 transactions (1 MB of JSON) took 81 s, and `debug` on each of 2,000 did not finish. The
 * same callbacks with views (`subarray`) and outputs that double: linear.
 * Its raw() also returned stdout alone whenever there was some, trimmed: jq's error after the
 * first outputs (`.[] | .id, error("x")`) was dropped, so a filter that failed half-way printed
 * what it had with exit 0, and leading or trailing spaces of a raw string were cut. It now throws
 * when jq wrote to stderr as well, with what jq printed as `output` (src/output/jq.ts sorts out
 * `debug` lines from errors), and returns stdout as jq wrote it.
 * The build fails if the text is not there, so an upgrade cannot drop this.
 */
const jqLinearIo = {
  name: 'jq-linear-io',
  setup(b) {
    b.onLoad({ filter: /jq-wasm[\\/]dist[\\/]build[\\/]jq\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      let text = await readFile(args.path, 'utf8');
      const stdin = 'stdinBuffer = stdinBuffer.slice(1);';
      // stdout and stderr grow the same way: a new array one byte longer per byte
      const append = (name) => `const tmp = new Uint8Array(${name}.length + 1);
                tmp.set(${name}, 0);
                tmp[tmp.length - 1] = charCode;
                ${name} = tmp;`;
      const linear = (name) => `const n = ${name}.length;
                if (n >= ${name}.buffer.byteLength - ${name}.byteOffset) {
                  const tmp = new Uint8Array(Math.max(4096, n * 2));
                  tmp.set(${name}, 0);
                  ${name} = tmp.subarray(0, n);
                }
                ${name} = new Uint8Array(${name}.buffer, ${name}.byteOffset, n + 1);
                ${name}[n] = charCode;`;
      const streams = ['stdoutBuffer', 'stderrBuffer'];
      const result = `if (stdoutBuffer.length > 0) {
            return fromByteArray(stdoutBuffer).trim();
        }`;
      const whole = `if (stdoutBuffer.length > 0 && stderrBuffer.length > 0) {
            const partial = new Error(fromByteArray(stderrBuffer).trim());
            partial.output = fromByteArray(stdoutBuffer);
            throw partial;
        } if (stdoutBuffer.length > 0) {
            return fromByteArray(stdoutBuffer);
        }`;
      if (!text.includes(stdin) || !text.includes(result) || streams.some((name) => !text.includes(append(name))))
        throw new Error(
          `${args.path}: jq-wasm's stdin/stdout/stderr callbacks changed; look at jqLinearIo in scripts/build.mjs`,
        );
      text = text.replace(stdin, 'stdinBuffer = stdinBuffer.subarray(1);');
      for (const name of streams) text = text.replace(append(name), linear(name));
      text = text.replace(result, whole);
      return { contents: text, loader: 'js' };
    });
  },
};

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  metafile: true,
  plugins: [jqLinearIo],
};
const seaOnly = process.argv.indexOf('--sea-only');
if (seaOnly >= 0) {
  // tests and the bench: the single executable alone, into a directory of their own
  await buildSea(resolve(process.argv[seaOnly + 1] ?? `${root}/dist/sea`));
} else {
  rmSync(`${root}/dist`, { recursive: true, force: true });
  const main = await build({
    ...common,
    entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts', 'scan-worker': SCAN_WORKER },
    outdir: 'dist',
    splitting: true,
    format: 'esm',
    // Dependencies are bundled too: one parsed file per chunk instead of hundreds of small modules
    // resolved at start-up (undici and conf alone cost ~70 ms each when loaded from node_modules).
    // CommonJS dependencies inside an ES module need a real require for node's built-ins.
    banner: {
      js: "import { createRequire as __bankctlRequire } from 'node:module'; const require = __bankctlRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
  });
  writeNotices(root, main.metafile, `${root}/dist/THIRD-PARTY-NOTICES.txt`);
  await buildFastHelp(`${root}/dist`);
  if (process.argv.includes('--sea')) await buildSea(`${root}/dist/sea`);
}

/**
 * `[<noun> [<verb>]] --help` without the program: <dir>/fast-help.cjs (src/fast-help.ts, required
 * by bin/bankctl.js before any ES module loads) and <dir>/help/<noun>.json, every command's help
 * captured from the program itself (src/help-capture.ts), so the two cannot differ.
 */
async function buildFastHelp(dir) {
  await build({
    ...common,
    entryPoints: { 'fast-help': 'src/fast-help.ts' },
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
  });
  const stage = mkdtempSync(join(tmpdir(), 'bankctl-help-'));
  try {
    await build({
      ...common,
      entryPoints: { capture: 'src/help-capture.ts' },
      outdir: stage,
      outExtension: { '.js': '.mjs' },
      format: 'esm',
      banner: {
        js: "import { createRequire as __bankctlRequire } from 'node:module'; const require = __bankctlRequire(import.meta.url);",
      },
    });
    const { captureHelp } = await import(pathToFileURL(join(stage, 'capture.mjs')).href);
    const files = await captureHelp();
    mkdirSync(join(dir, 'help'), { recursive: true });
    for (const [file, table] of Object.entries(files)) writeFileSync(join(dir, 'help', file), JSON.stringify(table));
    return Object.keys(files);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** dist/sea/bankctl (or <out>/bankctl) and its THIRD-PARTY-NOTICES.txt. */
async function buildSea(out) {
  const stage = mkdtempSync(join(tmpdir(), 'bankctl-sea-'));
  mkdirSync(out, { recursive: true });
  // The main script of a single executable must be one CommonJS file that requires nothing but
  // node's built-ins: bin/bankctl.js with dist/main.js bundled in from the sources (and
  // src/single-executable.ts for what differs). import.meta.url becomes the executable's file URL.
  const bundle = await build({
    ...common,
    entryPoints: { bankctl: 'bin/bankctl.js' },
    plugins: [
      jqLinearIo,
      {
        name: 'sources-for-dist',
        setup(b) {
          b.onResolve({ filter: /\/dist\/main\.js$/ }, () => ({ path: `${root}/src/main.ts` }));
          b.onResolve({ filter: /\/dist\/fast-help\.cjs$/ }, () => ({ path: `${root}/src/fast-help.ts` }));
        },
      },
    ],
    outdir: stage,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    define: { 'import.meta.url': '__bankctl_import_meta_url' },
    banner: { js: "const __bankctl_import_meta_url = require('node:url').pathToFileURL(process.execPath).href;" },
  });
  // The worker runs from a data: URL (ES module) made of this asset; it imports only built-ins.
  await build({
    ...common,
    entryPoints: { 'scan-worker': SCAN_WORKER },
    outdir: stage,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
  });
  writeNotices(root, bundle.metafile, `${out}/THIRD-PARTY-NOTICES.txt`);
  // the help texts of the fast path, embedded as assets help/<noun>.json
  const helpFiles = await buildFastHelp(stage);
  writeFileSync(
    `${stage}/sea-config.json`,
    JSON.stringify(
      {
        main: `${stage}/bankctl.cjs`,
        output: `${stage}/bankctl.blob`,
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: {
          'scan-worker.mjs': `${stage}/scan-worker.mjs`,
          ...Object.fromEntries(helpFiles.map((f) => [`help/${f}`, join(stage, 'help', f)])),
        },
      },
      null,
      2,
    ),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', `${stage}/sea-config.json`], { stdio: 'ignore' });
  const exe = join(out, 'bankctl');
  rmSync(exe, { force: true });
  copyFileSync(process.execPath, exe);
  chmodSync(exe, 0o755);
  const postject = fileURLToPath(new URL('../node_modules/postject/dist/cli.js', import.meta.url));
  const args = [postject, exe, 'NODE_SEA_BLOB', `${stage}/bankctl.blob`];
  args.push('--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2');
  if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
  // (postject warns about ELF note sections it does not need; only its failure matters)
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  rmSync(stage, { recursive: true, force: true });
  console.log(`built ${exe}`);
}
