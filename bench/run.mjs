// `npm run bench`: every benchmark of bench/, each against its own baseline measured in the same run.
import { existsSync } from 'node:fs';

const suites = [
  ['startup.mjs', 'runStartup'],
  ['paging.mjs', 'runPaging'],
  ['push.mjs', 'runPush'],
  ['ingest.mjs', 'runIngest'],
  ['sandbox.mjs', 'runSandboxRps'],
];
let failed = false;
for (const [file, fn] of suites) {
  const path = new URL(file, import.meta.url);
  if (!existsSync(path)) continue;
  const mod = await import(path.href);
  if (typeof mod[fn] !== 'function') continue;
  const rows = await mod[fn]({});
  if (Array.isArray(rows) && rows.some((r) => r.ok === 'NO')) failed = true;
}
if (failed) {
  console.log('\nSome figures are over their limit (see the ok column).');
  process.exitCode = 1;
}
