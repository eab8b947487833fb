// The problems of an input: every one counted, the first MAX_PROBLEMS kept with their lines.
export const MAX_PROBLEMS = 50;

export interface Problem {
  line: number;
  message: string;
}

export class Problems {
  readonly list: Problem[] = [];
  count = 0;

  add(line: number, message: string): void {
    this.count++;
    if (this.list.length < MAX_PROBLEMS) this.list.push({ line, message });
  }

  /** Another range's problems, its lines after offset lines; kept in file order by the caller. */
  addAll(list: Problem[], count: number, offset: number): void {
    for (const p of list)
      if (this.list.length < MAX_PROBLEMS) this.list.push({ line: p.line + offset, message: p.message });
    this.count += count;
  }

  /** The report: FILE:LINE: message for each kept problem, then how many more there are. */
  text(file: string): string {
    const more = this.count - this.list.length;
    const lines = this.list.map((p) => `${file}:${p.line}: ${p.message}`);
    if (more > 0) lines.push(`... and ${more} more problem(s) (${this.count} in all)`);
    return lines.join('\n');
  }

  /** Sorted by line (problems found after the pass, like duplicates, join in order). */
  sorted(): void {
    this.list.sort((a, b) => a.line - b.line);
  }
}
