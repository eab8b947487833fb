#!/usr/bin/env node
// The only place that sets the process exit code. Everything else returns numbers.
import { run } from '../dist/main.js';

// The reader of our output went away (`bankctl ... | head`): stop quietly, as other tools do,
// unless the running command handles it itself (a listener deregisters first).
process.stdout.on('error', (err) => {
  if (process.stdout.listenerCount('error') > 1) return;
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const code = await run(process.argv.slice(2));
process.exitCode = code;
// After Ctrl-C, in-flight work has been abandoned: do not wait for it to drain.
if (code === 130) process.exit(code);
