// Regenerates completions/ from the command tree (run after adding commands or flags).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = { bash: 'bankctl.bash', zsh: '_bankctl', fish: 'bankctl.fish' };
for (const [shell, file] of Object.entries(files)) {
  const r = spawnSync(process.execPath, [`${root}bin/bankctl.js`, 'completion', shell], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  writeFileSync(`${root}completions/${file}`, r.stdout);
}
console.log('completions/ regenerated');
