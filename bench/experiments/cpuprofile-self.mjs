// Diagnostic (not a bench row): where a `--cpu-prof` profile's time went, by function, self time,
// and (with --callers NAME) the call chains that led to one function's samples. What the profiles
// of docs/performance.md were read with; Chrome's DevTools shows the same, this one works over ssh.
// Run: node bench/experiments/cpuprofile-self.mjs FILE.cpuprofile [top N]
//      node bench/experiments/cpuprofile-self.mjs FILE.cpuprofile --callers writeLatin1String
// Profiles come from e.g. SANDBOX_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/ingest.mjs
// (the sandbox's process) or `node --cpu-prof --cpu-prof-dir=/tmp/prof bin/bankctl.js connector verify ...`.
import { readFileSync } from 'node:fs';

const [file, flag, arg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpuprofile-self.mjs FILE.cpuprofile [N | --callers NAME]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
/** Microseconds of samples per node. */
const time = new Map();
for (let i = 0; i < profile.samples.length; i++)
  time.set(profile.samples[i], (time.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));

const name = (n) => n.callFrame.functionName || '(anonymous)';
const where = (n) => `${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
const ms = (us) => (us / 1000).toFixed(0).padStart(7);

/** Sums of `time` under a key made of each sampled node. */
function sums(keyOf) {
  const out = new Map();
  for (const [id, us] of time) {
    const key = keyOf(byId.get(id), id);
    if (key !== undefined) out.set(key, (out.get(key) ?? 0) + us);
  }
  return [...out].sort((a, b) => b[1] - a[1]);
}

let total = 0;
for (const us of time.values()) total += us;
console.log(`${ms(total)} ms sampled in all`);
if (flag === '--callers') {
  const chains = sums((n, id) => {
    if (name(n) !== arg) return undefined;
    const chain = [];
    for (let p = parent.get(id), k = 0; p !== undefined && k < 5; p = parent.get(p), k++) {
      const q = byId.get(p);
      chain.push(`${name(q)} ${where(q)}`);
    }
    return chain.join(' < ');
  });
  for (const [chain, us] of chains.slice(0, 10)) console.log(`${ms(us)} ${chain}`);
} else {
  const top = Number(flag ?? 30);
  for (const [key, us] of sums((n) => `${name(n)} ${where(n)}`).slice(0, top)) console.log(`${ms(us)} ${key}`);
}
