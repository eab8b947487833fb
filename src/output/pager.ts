// A pager for long table output on a terminal: BANKCTL_PAGER, then PAGER, else `less -FRX`
// (-F: a table that fits the screen is printed and less quits at once). Never when stdout is not a
// terminal, nor with --no-pager; an empty value or `cat` means no pager. Output is held back until
// it is longer than the screen, so short tables never start one.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Context } from '../context.js';

export function pagerCommand(ctx: Context): string | undefined {
  if (!ctx.io.stdoutIsTTY || ctx.globals.pager === false) return undefined;
  // a test's fake terminal is not one a pager could draw on
  if (!process.stdout.isTTY) return undefined;
  const cmd = (ctx.env.BANKCTL_PAGER ?? ctx.env.PAGER ?? 'less -FRX').trim();
  if (cmd === '' || cmd === 'cat') return undefined;
  return cmd;
}

/** Where table text goes: stdout, or the pager once it is longer than the screen. */
export class PagedOutput {
  private held = '';
  private lines = 0;
  private child?: ChildProcess;
  private closed = false;
  private readonly rows: number;

  constructor(
    private readonly ctx: Context,
    private readonly command: string | undefined,
  ) {
    this.rows = process.stdout.rows || Number(ctx.env.LINES) || 24;
  }

  private async toStdout(chunk: string | Buffer): Promise<void> {
    const out = this.ctx.io.stdout;
    if (chunk.length > 0 && !out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }

  private start(): void {
    const env = { ...this.ctx.env };
    if (env.LESS === undefined) env.LESS = 'FRX';
    this.child = spawn(this.command!, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env });
    this.child.stdin!.on('error', () => (this.closed = true));
    this.child.on('error', () => (this.closed = true));
    this.child.on('exit', () => (this.closed = true));
  }

  private async toPager(chunk: string): Promise<void> {
    if (this.closed || chunk === '') return;
    const stdin = this.child!.stdin!;
    if (!stdin.write(chunk))
      await new Promise<void>((r) => {
        stdin.once('drain', () => r());
        this.child!.once('exit', () => r());
      });
  }

  /** Text, or bytes (UTF-8) for stdout without a pager. */
  async write(chunk: string | Buffer): Promise<void> {
    if (!this.command) return this.toStdout(chunk);
    if (typeof chunk !== 'string') chunk = chunk.toString('utf8');
    if (this.child) return this.toPager(chunk);
    this.held += chunk;
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) this.lines++;
    if (this.lines < this.rows - 1) return;
    this.start();
    const held = this.held;
    this.held = '';
    await this.toPager(held);
  }

  /** True once the pager was quit: the rest need not be produced. */
  get done(): boolean {
    return this.closed;
  }

  async end(): Promise<void> {
    if (!this.child) {
      const held = this.held;
      this.held = '';
      return this.toStdout(held);
    }
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((r) => {
      child.once('exit', () => r());
      child.stdin!.end();
    });
  }
}
