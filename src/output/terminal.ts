// The terminal guard: whatever a command writes to a stream that is a terminal passes a filter
// that removes control characters and escape sequences, whichever command wrote it and whatever
// the network put in it (OSC window titles, clipboard writes and hyperlinks, ESC[2J, BEL, device
// status queries whose answer would be typed into stdin, C1 controls, bidi overrides). What a terminal UI needs
// passes: colours (SGR without "conceal") on both streams and, on stderr only, where prompts and
// spinners draw, cursor moves and line erasing. Text from the network is also stripped of
// everything at the output layer (render.ts) and in the error printer, before it gets here.
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import type { IO } from '../io.js';

export type GuardMode = 'data' | 'ui';

const ESC = 0x1b;
const BEL = 0x07;
/** An escape string (OSC, DCS...) without its terminator is given up after this many characters. */
const MAX_STRING = 4096;
const MAX_CSI = 64;

/** SGR parameters that only colour or weight text (8, conceal, is not among them). */
function sgrAllowed(params: string): boolean {
  if (!/^[0-9;]*$/.test(params)) return false;
  const p = params === '' ? ['0'] : params.split(';');
  for (let i = 0; i < p.length; i++) {
    const n = p[i] === '' ? 0 : Number(p[i]);
    if (n === 38 || n === 48 || n === 58) {
      // extended colour: 38;5;N or 38;2;R;G;B
      if (p[i + 1] === '5') i += 2;
      else if (p[i + 1] === '2') i += 4;
      else return false;
      if (i >= p.length) return false;
      continue;
    }
    const ok =
      (n >= 0 && n <= 7) ||
      n === 9 ||
      (n >= 21 && n <= 27) ||
      n === 29 ||
      (n >= 30 && n <= 37) ||
      n === 39 ||
      (n >= 40 && n <= 47) ||
      n === 49 ||
      n === 59 ||
      (n >= 90 && n <= 97) ||
      (n >= 100 && n <= 107);
    if (!ok) return false;
  }
  return true;
}

/** The CSI sequences a prompt or spinner uses: cursor moves, column, erase in line, erase below. */
function uiAllowed(params: string, final: string): boolean {
  if (params === '?25') return final === 'l' || final === 'h';
  if (!/^\d*$/.test(params)) return false;
  if ('ABCDEFGK'.includes(final)) return true;
  return final === 'J' && (params === '' || params === '0');
}

type State = 'ground' | 'esc' | 'escInter' | 'csi' | 'string' | 'stringEsc' | 'cr';

/** A stateful filter: a sequence split across writes is still recognised. */
export class TerminalFilter {
  private state: State = 'ground';
  private csi = '';
  /** The CSI began with the 8-bit C1 introducer, which bankctl never writes: it is dropped whole. */
  private csiC1 = false;
  private stringLength = 0;

  constructor(private readonly mode: GuardMode) {}

  push(text: string): string {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      const c = ch.charCodeAt(0);
      switch (this.state) {
        case 'cr':
          // data: a carriage return survives only as part of CRLF (csv rows end in it)
          this.state = 'ground';
          if (c === 0x0a) {
            out += '\r\n';
            continue;
          }
          i--;
          continue;
        case 'esc':
          if (ch === '[') {
            this.state = 'csi';
            this.csi = '';
            this.csiC1 = false;
          } else if (ch === ']' || ch === 'P' || ch === 'X' || ch === '^' || ch === '_') {
            this.state = 'string';
            this.stringLength = 0;
          } else if (c >= 0x20 && c <= 0x2f) this.state = 'escInter';
          else if (c >= 0x30 && c <= 0x7e) this.state = 'ground';
          else {
            this.state = 'ground';
            i--;
          }
          continue;
        case 'escInter':
          if (c >= 0x20 && c <= 0x2f) continue;
          this.state = 'ground';
          if (!(c >= 0x30 && c <= 0x7e)) i--;
          continue;
        case 'csi':
          if (c >= 0x20 && c <= 0x3f && this.csi.length < MAX_CSI) {
            this.csi += ch;
            continue;
          }
          this.state = 'ground';
          if (c >= 0x40 && c <= 0x7e) {
            const allowed =
              !this.csiC1 && ((ch === 'm' && sgrAllowed(this.csi)) || (this.mode === 'ui' && uiAllowed(this.csi, ch)));
            if (allowed) out += `\x1b[${this.csi}${ch}`;
          } else i--;
          continue;
        case 'string':
          if (c === BEL || c === 0x9c || ++this.stringLength > MAX_STRING) this.state = 'ground';
          else if (c === ESC) this.state = 'stringEsc';
          continue;
        case 'stringEsc':
          this.state = 'ground';
          if (ch !== '\\') i--;
          continue;
        case 'ground':
          break;
      }
      if (c >= 0x20 && c !== 0x7f && !(c >= 0x80 && c <= 0x9f)) {
        // the bidirectional embeddings, overrides and isolates that reorder what the terminal
        // shows (Trojan Source) are dropped, whoever wrote them; LRM and RLM pass
        if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) continue;
        out += ch;
        continue;
      }
      if (c === 0x0a || c === 0x09) out += ch;
      else if (c === 0x0d) {
        if (this.mode === 'ui') out += ch;
        else this.state = 'cr';
      } else if (c === ESC) this.state = 'esc';
      else if (c === 0x9b) {
        // never re-sent as ESC[: many UTF-8 terminals ignore the C1 byte, every one obeys ESC[
        this.state = 'csi';
        this.csi = '';
        this.csiC1 = true;
      } else if (c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) {
        this.state = 'string';
        this.stringLength = 0;
      }
      // any other C0 or C1 control, and DEL: dropped
    }
    return out;
  }
}

type WriteCallback = (err?: Error | null) => void;

/**
 * The stream with its write() and end() filtered; everything else (events, drain, columns, the
 * tty methods that prompts and spinners call) is the stream's own.
 */
export function guardStream<T extends Writable>(stream: T, mode: GuardMode): T {
  const filter = new TerminalFilter(mode);
  const decoder = new StringDecoder('utf8');
  // the stream's own methods, kept: a library may hook write() on the stream (ora does, to clear
  // its spinner before other output); its hook then calls this guard, which calls the original
  const rawWrite = stream.write.bind(stream) as (chunk: string, cb?: WriteCallback) => boolean;
  const rawEnd = stream.end.bind(stream) as (chunk: string, cb?: WriteCallback) => unknown;
  const hooks: { write?: unknown; end?: unknown } = {};
  const clean = (chunk: unknown, encoding?: BufferEncoding): string => {
    if (typeof chunk === 'string')
      return filter.push(
        encoding && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(chunk, encoding).toString() : chunk,
      );
    if (chunk instanceof Uint8Array) return filter.push(decoder.write(Buffer.from(chunk)));
    return filter.push(String(chunk));
  };
  const write = (chunk: unknown, encoding?: BufferEncoding | WriteCallback, cb?: WriteCallback): boolean => {
    const callback = typeof encoding === 'function' ? encoding : cb;
    const enc = typeof encoding === 'string' ? encoding : undefined;
    return rawWrite(clean(chunk, enc), callback);
  };
  const end = (chunk?: unknown, encoding?: BufferEncoding | WriteCallback, cb?: WriteCallback): T => {
    const callback =
      typeof chunk === 'function' ? (chunk as WriteCallback) : typeof encoding === 'function' ? encoding : cb;
    const enc = typeof encoding === 'string' ? encoding : undefined;
    const rest =
      (chunk === undefined || typeof chunk === 'function' ? '' : clean(chunk, enc)) + filter.push(decoder.end());
    rawEnd(rest, callback);
    return proxy;
  };
  const proxy: T = new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return hooks.write ?? write;
      if (prop === 'end') return hooks.end ?? end;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
    set(target, prop, value) {
      if (prop === 'write' || prop === 'end') {
        // a hook set through the guard wraps the guard; set back to the guard itself, it goes
        hooks[prop] = value === write || value === end ? undefined : value;
        return true;
      }
      return Reflect.set(target, prop, value, target);
    },
  });
  return proxy;
}

/** The IO with its terminal streams guarded: stdout as data, stderr as a UI. Pipes and files are untouched. */
export function guardIO(io: IO): IO {
  if (!io.stdoutIsTTY && !io.stderrIsTTY) return io;
  return {
    ...io,
    stdout: io.stdoutIsTTY ? guardStream(io.stdout, 'data') : io.stdout,
    stderr: io.stderrIsTTY ? guardStream(io.stderr, 'ui') : io.stderr,
  };
}

/** JSON text for stdout: on a terminal, C1 controls escaped too (the JSON stays the same data). */
export function jsonForStdout(ctx: { io: Pick<IO, 'stdoutIsTTY'> }, json: string): string {
  return ctx.io.stdoutIsTTY ? terminalJson(json) : json;
}

/** JSON text for a terminal: C1 controls and DEL escaped as \u00XX (JSON.stringify escapes C0 itself). */
export function terminalJson(json: string): string {
  // C1 controls, and the bidirectional overrides that make a terminal show text in another order
  return json.replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
