// The checkpoint of a push: which chunks were delivered, bound to the service, the user, the
// options that cut the chunks and the input's content (a hash taken while the validation pass
// reads the bytes). A resume that differs in any of them is refused, naming what differs.
import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../fs/atomic.js';
import { InputError } from './input.js';
import { errnoReason } from '../fs/errors.js';

export interface CheckpointBinding {
  /** The service's base URL. */
  service: string;
  user: string;
  /** format, type, chunk size, strict or --skip-invalid: what decides the chunks. */
  options: string;
  /** sha256 of the input's bytes, as the validation pass read them. */
  content?: string;
}

interface CheckpointData extends CheckpointBinding {
  version: 2;
  delivered: number[];
  /** Chunks sent but not yet answered: a 409 on them after a restart is our own earlier delivery. */
  sending?: number[];
  totals: { delivered: number; duplicates: number; gone: number };
}

const DIFFERS: Array<[keyof CheckpointBinding, string]> = [
  ['service', 'another service'],
  ['user', 'another user'],
  ['options', 'other options (format, --type, --skip-invalid)'],
  ['content', 'another content of the input file'],
];

export class Checkpoint {
  readonly delivered = new Set<number>();
  readonly sending = new Set<number>();
  /** Chunks that a previous run had sent without recording the answer. */
  readonly unconfirmed = new Set<number>();
  totals = { delivered: 0, duplicates: 0, gone: 0 };
  private recorded?: CheckpointBinding;

  constructor(
    readonly path: string,
    readonly binding: CheckpointBinding,
  ) {}

  /** Reads the checkpoint (none yet is fine) and checks service, user and options. */
  static load(path: string, binding: CheckpointBinding): Checkpoint {
    const cp = new Checkpoint(path, binding);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return cp;
      throw new InputError(path, 1, `cannot read the checkpoint: ${errnoReason(err)}`);
    }
    // an empty file is none yet, as `--checkpoint "$(mktemp)"` gives (the writer never leaves one)
    if (text.trim() === '') return cp;
    let data: CheckpointData;
    try {
      data = JSON.parse(text) as CheckpointData;
      if (data.version !== 2 || !Array.isArray(data.delivered)) throw new Error('bad shape');
    } catch {
      throw new InputError(path, 1, 'not a checkpoint of this bankctl version (delete it to start over)');
    }
    cp.recorded = data;
    cp.check(['service', 'user', 'options']);
    for (const i of data.delivered) cp.delivered.add(i);
    for (const i of data.sending ?? []) if (!cp.delivered.has(i)) cp.unconfirmed.add(i);
    cp.totals = { ...cp.totals, ...data.totals };
    return cp;
  }

  /** The input's content hash, known after the validation pass: checked against the recorded one. */
  bindContent(content: string): void {
    this.binding.content = content;
    this.check(['content']);
  }

  private check(keys: Array<keyof CheckpointBinding>): void {
    const was = this.recorded;
    if (!was) return;
    for (const [key, what] of DIFFERS) {
      if (!keys.includes(key) || was[key] === this.binding[key]) continue;
      const detail = key === 'content' ? '' : `: it was written for ${was[key]}, this push is ${this.binding[key]}`;
      throw new InputError(this.path, 1, `the checkpoint belongs to ${what}${detail} (delete it to start over)`);
    }
  }

  /** Atomic: a reader sees the old file or the new one, never half of one. */
  save(): void {
    const sending = [...new Set([...this.sending, ...this.unconfirmed])]
      .filter((i) => !this.delivered.has(i))
      .sort((a, b) => a - b);
    const data: CheckpointData = {
      version: 2,
      ...this.binding,
      delivered: [...this.delivered].sort((a, b) => a - b),
      sending,
      totals: this.totals,
    };
    // a random O_EXCL temporary name, fsync'd; a full or read-only disk is one line naming the file
    writeFileAtomicSync(this.path, `${JSON.stringify(data)}\n`, { what: 'the checkpoint' });
  }
}
