#!/usr/bin/env node
// The only place that sets the process exit code. Everything else returns numbers.
import { run } from '../dist/main.js';

const code = await run(process.argv.slice(2));
process.exitCode = code;
// After Ctrl-C, in-flight work has been abandoned: do not wait for it to drain.
if (code === 130) process.exit(code);
