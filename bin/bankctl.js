#!/usr/bin/env node
// The only place that sets the process exit code. Everything else returns numbers.
// CommonJS on purpose (bin/package.json): `--version` and `[<noun> [<verb>]] --help` answer before
// the ES module loader starts, which is most of the cost of a bare ES module over `node -e 0`.
'use strict';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  writeOut(`${require('../package.json').version}\n`);
} else {
  // `[<noun> [<verb>]] --help` from the texts rendered at build time (src/fast-help.ts): the same
  // text the program prints, without loading it
  const help = argv.at(-1) === '--help' || argv.at(-1) === '-h' ? fastHelp() : undefined;
  if (help !== undefined) writeOut(help);
  else start();
}

function start() {
  // undici parses HTTP with llhttp compiled to WebAssembly. Without this flag V8 also compiles it with
  // TurboFan on background threads, and node waits for those jobs before the process may exit: about
  // 250 ms after every networked command was done, on this machine (`--cpu-prof` shows it idle). With
  // Liftoff's code alone a 2,000-page read used less CPU and memory, not more (bench/paging.mjs).
  require('node:v8').setFlagsFromString('--liftoff-only');
  // The reader of our output went away (`bankctl ... | head`): stop quietly, as other tools do,
  // unless the running command handles it itself (a listener deregisters first). Any other failure
  // to write the output (a full disk, `> /dev/full`, a closed descriptor) is one line and exit 8:
  // the output could not be delivered.
  process.stdout.on('error', (err) => {
    if (process.stdout.listenerCount('error') > 1) return;
    outputFailed(err);
  });
  // stderr's reader went away (`bankctl ... 2>&1 | head`) or it cannot be written: notices and the
  // error line have nowhere to go, and that changes nothing about the command, whose exit code
  // stands (without this, the failed write of a notice was an uncaught EPIPE: exit 1, "a bug").
  process.stderr.on('error', () => {});
  // Ctrl-C (or a TERM) while the program loads, before run() listens: the line and exit code of a
  // command stopped later, not death by the signal. Once run() or a command listens, this one steps
  // aside, as the stdout handler above does.
  const early = (signal) => {
    if (process.listenerCount(signal) > 1) return;
    process.stderr.write('\ninterrupted\n');
    process.exit(130);
  };
  process.on('SIGINT', early);
  process.on('SIGTERM', early);
  process.on('SIGHUP', early);
  import('../dist/main.js').then(async ({ run }) => {
    const code = await run(argv);
    process.exitCode = code;
    // After Ctrl-C, in-flight work has been abandoned: do not wait for it to drain.
    if (code === 130) process.exit(code);
  });
}

function outputFailed(err) {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  const reason = String(err.message || err)
    .replace(/^[A-Z]+: /, '')
    .replace(/, write$/, '');
  process.stderr.write(`error: cannot write to standard output: ${reason}${err.code ? ` (${err.code})` : ''}\n`);
  process.exit(8);
}

/**
 * One short answer straight to descriptor 1: cheaper than setting up process.stdout (a stream
 * over a pipe or a terminal). A descriptor that would block takes the rest the ordinary way.
 */
function writeOut(text) {
  const buf = Buffer.from(text);
  let done = 0;
  try {
    const { writeSync } = require('node:fs');
    while (done < buf.length) done += writeSync(1, buf, done);
  } catch (err) {
    if (err.code !== 'EAGAIN') return outputFailed(err);
    process.stdout.on('error', outputFailed);
    process.stdout.write(buf.subarray(done));
  }
}

/** The build-time help for argv, or undefined (then the program answers). */
function fastHelp() {
  try {
    return require('../dist/fast-help.cjs').fastHelp(argv);
  } catch {
    return undefined;
  }
}
