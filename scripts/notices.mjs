// The licences of the packages bundled into dist/: the bundle carries their code, so the package
// (and the single executable) carries their notices. Called by scripts/build.mjs with esbuild's
// metafile; `node scripts/notices.mjs` alone lists what the last build would include.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** node_modules/<name>/... or node_modules/@scope/name/... -> the package's directory, nested too. */
function packageDir(input) {
  const parts = input.split('/');
  let at = -1;
  for (let i = 0; i < parts.length; i++) if (parts[i] === 'node_modules') at = i;
  if (at < 0) return undefined;
  return parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join('/');
}

/** The bundled packages: name, version, licence and the licence text, sorted by name. */
export function bundledPackages(root, metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDir(input);
    if (dir) dirs.add(dir);
  }
  const out = [];
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    out.push({
      name: pkg.name,
      version: pkg.version,
      license: typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see the package'),
      text: file ? readFileSync(join(root, dir, file), 'utf8').trim() : undefined,
    });
  }
  const seen = new Set();
  return out
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
    .filter((p) => !seen.has(`${p.name}@${p.version}`) && seen.add(`${p.name}@${p.version}`));
}

export function writeNotices(root, metafile, file) {
  const pkgs = bundledPackages(root, metafile);
  const parts = [
    'bankctl bundles the following packages into its distribution. Their licences follow.',
    '',
    ...pkgs.map((p) => `- ${p.name}@${p.version} (${p.license})`),
  ];
  for (const p of pkgs) {
    parts.push('', '-'.repeat(72), `${p.name}@${p.version} (${p.license})`, '');
    parts.push(p.text ?? `No licence file in the package; its package.json declares ${p.license}.`);
  }
  writeFileSync(file, `${parts.join('\n')}\n`);
  return pkgs;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const meta = join(root, 'dist', 'THIRD-PARTY-NOTICES.txt');
  if (!existsSync(meta)) throw new Error('run `npm run build` first');
  process.stdout.write(readFileSync(meta, 'utf8').split('\n\n---')[0] + '\n');
}
