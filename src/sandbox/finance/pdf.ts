// A minimal PDF 1.4 writer: Helvetica text lines on A4 pages, WinAnsi encoding, a correct xref
// table. Enough for the account verification report; no library needed.

export interface PdfLine {
  text: string;
  size?: number;
  bold?: boolean;
  /** Extra space before the line, in points. */
  gap?: number;
}

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 56;

/** Text to WinAnsi bytes: Latin-1 as is, the euro sign at 0x80, anything else as "?". */
function winAnsi(text: string): Buffer {
  const bytes: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c === 0x20ac) bytes.push(0x80);
    else if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff)) bytes.push(c);
    else if (c === 0x09) bytes.push(0x20);
    else bytes.push(0x3f);
  }
  return Buffer.from(bytes);
}

/** A PDF literal string: ( ) and \ escaped, bytes above 0x7e as octal escapes. */
function pdfString(text: string): string {
  let out = '(';
  for (const b of winAnsi(text)) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b > 0x7e) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out})`;
}

/** Lines laid out top to bottom, new pages as needed. Returns the whole file. */
export function buildPdf(lines: PdfLine[], info: { title: string; created: number }): Buffer {
  // lay out into pages
  const pages: string[][] = [[]];
  let y = PAGE_H - MARGIN;
  for (const l of lines) {
    const size = l.size ?? 10;
    const step = size * 1.4 + (l.gap ?? 0);
    if (y - step < MARGIN) {
      pages.push([]);
      y = PAGE_H - MARGIN;
    }
    y -= step;
    pages[pages.length - 1]!.push(
      `BT /${l.bold ? 'F2' : 'F1'} ${size} Tf ${MARGIN} ${y.toFixed(1)} Td ${pdfString(l.text)} Tj ET`,
    );
  }
  pages.forEach((p, i) =>
    p.push(`BT /F1 8 Tf ${MARGIN} ${MARGIN / 2} Td ${pdfString(`Page ${i + 1} of ${pages.length}`)} Tj ET`),
  );

  // objects: 1 catalog, 2 pages, 3 F1, 4 F2, 5 info, then page + content pairs
  const objects: Buffer[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects.push(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'));
  objects.push(
    Buffer.from(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`),
  );
  objects.push(Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'));
  objects.push(Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'));
  const d = new Date(info.created).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  objects.push(
    Buffer.from(`<< /Title ${pdfString(info.title)} /Producer (bankctl sandbox) /CreationDate (D:${d}Z) >>`),
  );
  for (const [i, p] of pages.entries()) {
    const content = Buffer.from(`${p.join('\n')}\n`, 'latin1');
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
      ),
    );
    objects.push(
      Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('endstream')]),
    );
  }

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
