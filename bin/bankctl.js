#!/usr/bin/env node
// The only place that sets the process exit code. Everything else returns numbers.
import { run } from '../dist/main.js';

process.exitCode = await run(process.argv.slice(2));
