// `bankctl <noun> [<verb>] --help` without loading the program: the help texts are rendered at
// build time (src/help-capture.ts -> dist/help/<noun>.json) with the width-dependent parts left as
// markers, and wrapped here for this terminal exactly as commander's Help would wrap them.
// Built on its own (dist/fast-help.cjs, CommonJS, no imports) so that bin/bankctl.js can require
// it before the ES module loader starts. Anything it does not know goes the ordinary way.
//
// Markers (NUL-delimited JSON; JSON escapes any NUL inside the strings):
//   \0I[term, termWidth, description]\0  commander's Help.formatItem(term, termWidth, description)
//   \0W[text, offset]\0                   Help.boxWrap(text, helpWidth - offset)

/** commander's Help: items are indented by 2, term and description separated by 2. */
const ITEM_INDENT = 2;
const SPACER = 2;
/** commander's Help.minWidthToWrap */
const MIN_WIDTH_TO_WRAP = 40;
export const MARKER = /\0([IW])(.*?)\0/g;

const displayWidth = (s: string): number => s.replace(/\x1b\[\d*(;\d*)*m/g, '').length;

/** commander's Help.boxWrap. */
export function boxWrap(str: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return str;
  const out: string[] = [];
  for (const line of str.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      out.push('');
      continue;
    }
    let sum = [chunks.shift()!];
    let sumWidth = displayWidth(sum[0]!);
    for (const chunk of chunks) {
      const w = displayWidth(chunk);
      if (sumWidth + w <= width) {
        sum.push(chunk);
        sumWidth += w;
        continue;
      }
      out.push(sum.join(''));
      const next = chunk.trimStart();
      sum = [next];
      sumWidth = displayWidth(next);
    }
    out.push(sum.join(''));
  }
  return out.join('\n');
}

/**
 * The term column for helpWidth (src/program.ts HELP_CONFIG.formatItem does the same): commander
 * stops wrapping every description of a help once one term leaves fewer than 40 columns
 * (`consents --help`: `update-link [options] <credentialsId>`), and a terminal broke those lines of
 * 200 characters at column 0. The column is kept narrow enough to wrap; a longer term gets a line of
 * its own, its description below it.
 */
export function termColumn(termWidth: number, helpWidth: number): number {
  const room = helpWidth - ITEM_INDENT - SPACER - MIN_WIDTH_TO_WRAP;
  return termWidth > room && room >= MIN_TERM_COLUMN ? room : termWidth;
}
/** Narrower than this (a terminal of under 56 columns), nothing wraps anyway: the column is kept. */
export const MIN_TERM_COLUMN = 12;

/** commander's Help.formatItem at helpWidth, with the term column of termColumn. */
export function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  const indent = ' '.repeat(ITEM_INDENT);
  if (!description) return indent + term;
  const column = termColumn(termWidth, helpWidth);
  if (column < termWidth && displayWidth(term) > column)
    return `${indent}${term}\n${formatItem('', column, description, helpWidth)}`;
  termWidth = column;
  const padded = term.padEnd(termWidth + term.length - displayWidth(term));
  const remaining = helpWidth - termWidth - SPACER - ITEM_INDENT;
  const formatted =
    remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description)
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + SPACER)}`);
  return indent + padded + ' '.repeat(SPACER) + formatted.replace(/\n/g, `\n${indent}`);
}

/** A captured help text with its markers rendered for helpWidth. */
export function render(captured: string, helpWidth: number): string {
  return captured.replace(MARKER, (_m, kind: string, json: string) => {
    const a = JSON.parse(json) as [string, number, string] | [string, number];
    return kind === 'I'
      ? formatItem(a[0], a[1], (a as [string, number, string])[2], helpWidth)
      : boxWrap(a[0], helpWidth - a[1]);
  });
}

/**
 * The command path whose help this command line asks for and nothing else (`users create --help`,
 * `--help`), or undefined: any option besides the final --help/-h goes the ordinary way.
 */
export function helpPath(argv: string[]): string[] | undefined {
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return undefined;
  const words = argv.slice(0, -1);
  return words.every((w) => /^[a-z][a-z0-9-]*$/.test(w)) && words.length <= 3 ? words : undefined;
}

/** The file of dist/help/ that holds a path's help: one per noun, the root's own. */
export const helpFile = (path: string[]): string => `${path[0] ?? 'bankctl'}.json`;

/** dist/help/<file> next to this file, or the single executable's asset help/<file>. */
function loadTable(file: string): Record<string, string> {
  let sea: typeof import('node:sea') | undefined;
  try {
    // CommonJS on purpose (see the top): loaded only when asked
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    sea = require('node:sea') as typeof import('node:sea');
  } catch {
    // a node without single executable support
  }
  if (sea?.isSea()) return JSON.parse(sea.getAsset(`help/${file}`, 'utf8')) as Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  return JSON.parse(readFileSync(`${__dirname}/help/${file}`, 'utf8')) as Record<string, string>;
}

/**
 * The help text for argv, rendered for this stdout, or undefined when argv is not a plain help
 * request or the path is not in the table (an alias, a misspelling: commander answers those).
 * `load` reads dist/help/<file>; a missing or unreadable table is "not known" too.
 */
export function fastHelp(
  argv: string[],
  load: (file: string) => Record<string, string> | undefined = loadTable,
  out: { isTTY?: boolean; columns?: number } = process.stdout,
): string | undefined {
  const path = helpPath(argv);
  if (!path) return undefined;
  let table: Record<string, string> | undefined;
  try {
    table = load(helpFile(path));
  } catch {
    return undefined;
  }
  const captured = table?.[path.join(' ')];
  if (captured === undefined) return undefined;
  // commander: the terminal's width on a TTY, else 80
  return render(captured, (out.isTTY ? out.columns : undefined) ?? 80);
}
