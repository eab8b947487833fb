// A one-line progress bar with rate and ETA on stderr, only on a TTY and without --quiet.
import type { Context } from '../../context.js';

export class Progress {
  private total = 0;
  private done = 0;
  private started = 0;
  private timer?: NodeJS.Timeout;
  private readonly on: boolean;
  constructor(private readonly ctx: Context) {
    this.on = ctx.io.stderrIsTTY && !ctx.quiet;
  }
  start(total: number): void {
    this.total = total;
    this.started = this.ctx.clock.now();
    if (!this.on) return;
    this.timer = setInterval(() => this.draw(), 200);
    this.timer.unref();
    this.draw();
  }
  update(done: number): void {
    this.done = done;
  }
  private draw(): void {
    const elapsed = (this.ctx.clock.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const eta = rate > 0 ? Math.max(0, (this.total - this.done) / rate) : undefined;
    const width = Math.max(10, Math.min(40, this.ctx.io.columns - 60));
    const frac = this.total > 0 ? Math.min(1, this.done / this.total) : 0;
    const bar = '#'.repeat(Math.round(frac * width)).padEnd(width, '-');
    const etaText =
      eta === undefined ? '--:--' : `${Math.floor(eta / 60)}:${String(Math.round(eta % 60)).padStart(2, '0')}`;
    this.ctx.io.stderr.write(`\r[${bar}] ${this.done}/${this.total} ${Math.round(rate)}/s ETA ${etaText} `);
  }
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.on && this.timer) this.ctx.io.stderr.write('\r\x1b[K');
  }
}
