// Shell completions generated from the commander tree: nouns, verbs, flags, and enum values
// (options declared with .choices()). `bankctl completion bash|zsh|fish`; committed in completions/.
import type { Command, Option } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { examples, printsBare, type Run } from './util.js';
import { MARKETS } from '../contract/markets.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  path: string;
  subcommands: string[];
  /** Words for the command's arguments (the `api` command: methods and the endpoint table's paths). */
  words: string[];
  options: string[];
  valued: string[];
  choices: Record<string, string[]>;
}

const ARGUMENT_WORDS = new WeakMap<Command, () => string[]>();

/** Declares what a command's arguments complete to (read when a completion script is generated). */
export function completeArguments(cmd: Command, words: () => string[]): void {
  ARGUMENT_WORDS.set(cmd, words);
}

/** Options that mean the same wherever they appear, with a closed list of values. */
const STATIC_OPTION_VALUES: Record<string, readonly string[]> = { '--market': MARKETS };

const OPTION_VALUES = new WeakMap<Command, Record<string, () => readonly string[]>>();

/**
 * Declares the values an option of this command completes to, for an option whose values are a
 * closed list that bankctl checks itself (commander's .choices() would replace bankctl's message).
 */
export function completeOption(cmd: Command, option: string, values: () => readonly string[]): Command {
  OPTION_VALUES.set(cmd, { ...OPTION_VALUES.get(cmd), [option]: values });
  return cmd;
}

function optionNames(o: Option): string[] {
  return [o.long, o.short].filter((x): x is string => Boolean(x));
}

function takesValue(o: Option): boolean {
  return Boolean(o.required || o.optional);
}

/** Every command path with what may follow it. Global options are listed on every path. */
export function completionTree(program: Command): Node[] {
  const globals = program.options.filter((o) => !o.hidden);
  const nodes: Node[] = [];
  const visit = (cmd: Command, path: string[]) => {
    const opts = [...globals, ...(cmd === program ? [] : cmd.options)].filter((o) => !o.hidden);
    const choices: Record<string, string[]> = {};
    for (const o of opts) {
      if (o.argChoices && o.argChoices.length > 0) for (const n of optionNames(o)) choices[n] = [...o.argChoices];
    }
    for (const o of opts)
      if (o.long && STATIC_OPTION_VALUES[o.long]) choices[o.long] = [...STATIC_OPTION_VALUES[o.long]!];
    for (const [name, values] of Object.entries(OPTION_VALUES.get(cmd) ?? {})) choices[name] = [...values()];
    const subs = cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    nodes.push({
      path: path.join(' '),
      // aliases too (`tx`, `ls`, `rm`): a path typed with one completes like the name's
      subcommands: subs.flatMap((c) => [c.name(), ...c.aliases()]),
      words: ARGUMENT_WORDS.get(cmd)?.() ?? [],
      options: [...new Set([...opts.flatMap(optionNames), '--help'])],
      valued: opts.filter(takesValue).flatMap(optionNames),
      choices,
    });
    for (const c of subs) for (const name of [c.name(), ...c.aliases()]) visit(c, [...path, name]);
  };
  visit(program, []);
  return withHelpPaths(nodes);
}

/**
 * `bankctl help transactions list`: `help` is followed by the words of any command, so each command
 * path is also a path under `help`, with the same subcommands and nothing else (no arguments, no
 * options but --help).
 */
function withHelpPaths(nodes: Node[]): Node[] {
  const help = nodes.find((n) => n.path === 'help');
  if (!help || help.subcommands.length > 0) return nodes;
  const mirrored = nodes
    .filter((n) => n.path !== 'help' && !n.path.startsWith('help '))
    .map((n) => ({
      path: n.path === '' ? 'help' : `help ${n.path}`,
      subcommands: n.subcommands.filter((c) => n.path !== '' || c !== 'help'),
      words: [],
      options: ['--help'],
      valued: [],
      choices: {},
    }));
  return [...nodes.filter((n) => n !== help), ...mirrored];
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Option values completed by `bankctl __complete KIND` (from the cache or the service, fast). */
export const DYNAMIC_OPTIONS: Record<string, string> = {
  '--provider': 'providers',
  '--account': 'accounts',
  '--credentials-id': 'credentials',
  '--profile': 'profiles',
  '--event': 'events',
  '--resolution': 'resolutions',
};

/** The same for an option of one command only (`--type` means something else elsewhere). */
const SCOPED_DYNAMIC_OPTIONS: Array<[path: RegExp, option: string, kind: string]> = [
  [/^statistics query$/, '--type', 'statistics-types'],
  // the Events v2 endpoints take only v2 names; listen and deliveries take both
  [/^webhooks endpoints (create|update)$/, '--event', 'events-v2'],
  [/^webhooks (listen|deliveries)$/, '--event', 'events-all'],
];

/** The `__complete` kind of an option's value on a command path, if any. */
function dynamicKind(path: string, option: string): string | undefined {
  return SCOPED_DYNAMIC_OPTIONS.find(([re, o]) => o === option && re.test(path))?.[2] ?? DYNAMIC_OPTIONS[option];
}

/** The verbs whose first argument is a provider name, credentials id, account id or profile name. */
const DYNAMIC_ARGUMENTS: Array<[RegExp, string]> = [
  [/^providers get$/, 'providers'],
  [/^credentials (get|delete|rm|refresh|update|supplement|authenticate|qr|watch)$/, 'credentials'],
  // a consent is named by its credentials id
  [/^consents (delete|rm|update-link)$/, 'credentials'],
  [/^accounts (update|balances|get|parties)$/, 'accounts'],
  [/^config use$/, 'profiles'],
];

function dynamicCases(nodes: Node[]): string {
  const lines: string[] = [];
  for (const n of nodes) {
    const kind = DYNAMIC_ARGUMENTS.find(([re]) => re.test(n.path))?.[1];
    if (kind) lines.push(`    ${q(`${n.path}|`)}) echo ${kind} ;;`);
    for (const [re, opt, k] of SCOPED_DYNAMIC_OPTIONS)
      if (re.test(n.path)) lines.push(`    ${q(`${n.path}|${opt}`)}) echo ${k} ;;`);
  }
  for (const [opt, kind] of Object.entries(DYNAMIC_OPTIONS)) lines.push(`    *${q(`|${opt}`)}) echo ${kind} ;;`);
  return lines.join('\n');
}

export function bashScript(program: Command): string {
  const nodes = completionTree(program);
  const cases = (f: (n: Node) => string) => nodes.map((n) => `    ${q(n.path)}) echo ${q(f(n))} ;;`).join('\n');
  const choiceCases = nodes
    .flatMap((n) =>
      Object.entries(n.choices).map(([opt, vals]) => `    ${q(`${n.path}|${opt}`)}) echo ${q(vals.join(' '))} ;;`),
    )
    .join('\n');
  return `# bash completion for bankctl. Generated by \`bankctl completion bash\`; do not edit.
# Install: add \`source <(bankctl completion bash)\` to ~/.bashrc, or save this file as ~/.local/share/bash-completion/completions/bankctl (with the bash-completion package).

_bankctl_subs() {
  case "$1" in
${cases((n) => n.subcommands.join(' '))}
  esac
}

_bankctl_opts() {
  case "$1" in
${cases((n) => n.options.join(' '))}
  esac
}

_bankctl_words() {
  case "$1" in
${cases((n) => n.words.join(' '))}
  esac
}

_bankctl_valued() {
  case "$1" in
${cases((n) => n.valued.join(' '))}
  esac
}

_bankctl_choices() {
  case "$1|$2" in
${choiceCases}
  esac
}

# What \`bankctl __complete\` is asked for: a verb's argument ("path|") or an option's value ("path|--opt").
_bankctl_dynamic() {
  case "$1|$2" in
${dynamicCases(nodes)}
  esac
}

_bankctl_complete() {
  local kind
  kind="$(_bankctl_dynamic "$1" "$2")"
  [[ -n $kind ]] && command bankctl __complete "$kind" "$3" 2>/dev/null
}

# The command path typed so far (nouns and verbs), skipping flags and their values.
_bankctl_path() {
  local path="" i w p
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    p="\${COMP_WORDS[i-1]}"
    [[ $w == -* ]] && continue
    if [[ $p == -* && $p != *=* && " $(_bankctl_valued "$path") " == *" $p "* ]]; then continue; fi
    if [[ " $(_bankctl_subs "$path") " == *" $w "* ]]; then path="\${path:+$path }$w"; fi
  done
  printf '%s' "$path"
}

_bankctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path choices
  path="$(_bankctl_path)"
  if [[ $prev == -* && " $(_bankctl_valued "$path") " == *" $prev "* ]]; then
    choices="$(_bankctl_choices "$path" "$prev")"
    [[ -z $choices ]] && choices="$(_bankctl_complete "$path" "$prev" "$cur")"
    if [[ -n $choices ]]; then
      COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    else
      COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_bankctl_opts "$path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_bankctl_subs "$path") $(_bankctl_words "$path") $(_bankctl_complete "$path" "" "$cur")" -- "$cur"))
  fi
  return 0
}

complete -o default -F _bankctl bankctl
`;
}

export function zshScript(program: Command): string {
  return `#compdef bankctl
# zsh completion for bankctl. Generated by \`bankctl completion zsh\`; do not edit.
# Install: put this file on your $fpath as _bankctl (compinit loads it), or source it (compinit is
# run first when it has not been).
# It drives the same generated tables as the bash completion through zsh's bashcompinit.

(( $+functions[compdef] )) || { autoload -U compinit && compinit }
autoload -U +X bashcompinit && bashcompinit

${bashScript(program)
  .split('\n')
  .filter((l) => !l.startsWith('# bash completion') && !l.startsWith('# Install'))
  .join('\n')}
# Loaded from $fpath, this file runs as the function _bankctl on the first Tab of a shell: it has
# just defined everything above, so it completes that Tab's word too (later Tabs go straight there).
if [[ \${funcstack[1]-} == _bankctl && -n \${compstate[context]-} ]]; then
  _bash_complete -o default -F _bankctl
fi
`;
}

export function fishScript(program: Command): string {
  const nodes = completionTree(program);
  const lines: string[] = [
    '# fish completion for bankctl. Generated by `bankctl completion fish`; do not edit.',
    '# Install: copy to ~/.config/fish/completions/bankctl.fish',
    '',
    'function __bankctl_path',
    '    set -l tokens (commandline -opc)',
    '    set -e tokens[1]',
    '    set -l path ""',
    '    set -l skip 0',
    '    for t in $tokens',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        if string match -q -- "-*" $t',
    '            if contains -- $t (__bankctl_valued "$path")',
    '                set skip 1',
    '            end',
    '            continue',
    '        end',
    '        if contains -- $t (__bankctl_subs "$path")',
    '            if test -z "$path"',
    '                set path $t',
    '            else',
    '                set path "$path $t"',
    '            end',
    '        end',
    '    end',
    '    echo $path',
    'end',
    '',
    'function __bankctl_subs',
    '    switch $argv[1]',
    ...nodes.map(
      (n) => `        case ${q(n.path)}\n            printf '%s\\n' ${n.subcommands.map(q).join(' ') || "''"}`,
    ),
    '    end',
    'end',
    '',
    'function __bankctl_valued',
    '    switch $argv[1]',
    ...nodes.map((n) => `        case ${q(n.path)}\n            printf '%s\\n' ${n.valued.map(q).join(' ') || "''"}`),
    '    end',
    'end',
    '',
    'complete -c bankctl -f',
  ];
  for (const n of nodes) {
    const cond = `test (__bankctl_path) = ${q(n.path)}`;
    if (n.subcommands.length > 0) lines.push(`complete -c bankctl -n ${q(cond)} -a ${q(n.subcommands.join(' '))}`);
    if (n.words.length > 0) lines.push(`complete -c bankctl -n ${q(cond)} -a ${q(n.words.join(' '))}`);
    for (const o of n.options.filter((x) => x.startsWith('--'))) {
      const name = o.slice(2);
      const vals = n.choices[o];
      const valued = n.valued.includes(o);
      const dyn = dynamicKind(n.path, o);
      lines.push(
        `complete -c bankctl -n ${q(cond)} -l ${name}${valued ? (vals ? ` -x -a ${q(vals.join(' '))}` : dyn ? ` -x -a ${q(`(bankctl __complete ${dyn} 2>/dev/null)`)}` : ' -r') : ''}`,
      );
    }
    const argKind = DYNAMIC_ARGUMENTS.find(([re]) => re.test(n.path))?.[1];
    if (argKind) lines.push(`complete -c bankctl -n ${q(cond)} -a ${q(`(bankctl __complete ${argKind} 2>/dev/null)`)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function scriptFor(shell: Shell, program: Command): string {
  return shell === 'bash' ? bashScript(program) : shell === 'zsh' ? zshScript(program) : fishScript(program);
}

export interface CompletionOptions {
  shell: Shell;
  /** The whole command tree (every noun loaded). */
  program: Command;
}

/** A noun that is one command: it configures the `completion` command src/program.ts made. */
export function newCmdCompletion(
  completion: Command,
  ctx: Context,
  run: Run<CompletionOptions> = completionRun,
): Command {
  completeArguments(completion, () => [...SHELLS]);
  completion.argument('<shell>', `one of ${SHELLS.join(', ')}`).action(async (shell: string) => {
    if (!(SHELLS as readonly string[]).includes(shell))
      throw new UsageError(`unknown shell "${shell}"`, { hint: `use ${SHELLS.join(', ')}` });
    await run(ctx, { shell: shell as Shell, program: completion.parent! });
  });
  printsBare(completion, 'a shell script');
  return examples(completion, [
    'source <(bankctl completion bash)',
    'bankctl completion zsh > "${fpath[1]}/_bankctl"',
    'bankctl completion fish > ~/.config/fish/completions/bankctl.fish',
  ]);
}

export const registerCompletion = (completion: Command, ctx: Context): void => void newCmdCompletion(completion, ctx);

export async function completionRun(ctx: Context, o: CompletionOptions): Promise<void> {
  ctx.io.stdout.write(scriptFor(o.shell, o.program));
}
