import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../../src/main.js';
import { testIO } from '../../../src/io.js';
import { newCmdPdf } from '../../../src/commands/reports/pdf.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { cliCases, optionCases, useSandbox } from '../../helpers/commands.js';

const sb = useSandbox({ months: 1 });
const dir = tempDir();
let id = '';

describe('reports pdf: flags', () => {
  optionCases('reports pdf', newCmdPdf, [
    {
      name: 'a file',
      args: ['r1', '-O', 'r.pdf'],
      options: { id: 'r1', outputFile: 'r.pdf', template: 'standard-1.0' },
    },
    {
      name: '--jq: a PDF is no json',
      args: ['r1', '-O', 'r.pdf', '--jq', '.'],
      code: 2,
      stderr: "--jq does not apply to `bankctl reports pdf`: its output is the report's PDF",
    },
    {
      name: 'no -O: report-<id>.pdf',
      args: ['r1'],
      options: { id: 'r1', outputFile: 'report-r1.pdf', template: 'standard-1.0' },
    },
    {
      name: 'never to a terminal',
      args: ['r1', '-O', '-'],
      stdoutIsTTY: true,
      code: 2,
      stderr: 'refusing to write a PDF to a terminal',
    },
  ]);
});

describe('reports pdf: output', () => {
  cliCases('reports pdf', () => sb.env, [
    {
      name: 'the PDF bytes to a file',
      before: async () => {
        id = JSON.parse((await runCli(['reports', 'create', '-o', 'json'], { env: sb.env })).stdout).id;
      },
      args: () => [id, '-O', join(dir, 'r.pdf')],
      code: 0,
      stderr: /wrote \d+ bytes to /,
      after: () => expect(readFileSync(join(dir, 'r.pdf')).subarray(0, 5).toString()).toBe('%PDF-'),
    },
    { name: 'to standard output with -O -', args: () => [id, '-O', '-'], code: 0, stdout: /^%PDF-/ },
    {
      name: 'an unwritable place',
      args: () => [id, '-O', join(dir, 'no-such-dir', 'r.pdf')],
      code: 2,
      stderr: /cannot write .*ENOENT/,
    },
    { name: 'an unknown report is 4', args: ['f'.repeat(32), '-O', join(dir, 'x.pdf')], code: 4 },
  ]);
});

describe('reports pdf without -O', () => {
  test('writes report-<id>.pdf in the current directory, 0600, and says where', async () => {
    const rid = JSON.parse((await runCli(['reports', 'create', '-o', 'json'], { env: sb.env })).stdout).id as string;
    const io = testIO({ env: sb.env, cwd: dir });
    expect(await run(['reports', 'pdf', rid], io)).toBe(0);
    const file = join(dir, `report-${rid}.pdf`);
    expect(io.err()).toContain(`to ${file}`);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
