import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
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
    { name: 'no -O', args: ['r1'], code: 2, stderr: 'where should the PDF go? give -O FILE' },
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
