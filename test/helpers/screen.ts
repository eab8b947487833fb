// Waiting for a terminal screen (a tmux pane, a pseudo-terminal's output) to show something.

/** Polls `read` until `re` matches what it shows; the screen at the time, or an error showing it. */
export async function waitForScreen(read: () => string, re: RegExp, timeoutMs: number): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const screen = read();
    if (re.test(screen)) return screen;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${re}; the screen shows:\n${screen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
