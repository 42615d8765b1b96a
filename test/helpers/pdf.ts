/** Real PDFs for tests, made and read back with pdf-lib alone (no poppler on CI). */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, PDFRef, StandardFonts, type PDFPage } from 'pdf-lib';

/** A PDF of `pageCount` pages, each showing `Page <n>`. */
export async function makePdf(pageCount: number): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pageCount; n += 1) document.addPage([300, 400]).drawText(`Page ${n}`, { x: 40, y: 300, size: 14, font });
  return Buffer.from(await document.save());
}

function contentStreams(page: PDFPage): PDFRawStream[] {
  const contents = page.node.Contents();
  const items = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  return items.map((item) => (item instanceof PDFRef ? page.doc.context.lookup(item) : item)).filter((s): s is PDFRawStream => s instanceof PDFRawStream);
}

/** Unescapes a PDF literal string's backslash sequences. */
function literal(text: string): string {
  return text.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, c: string) =>
    /^[0-7]/.test(c) ? String.fromCharCode(parseInt(c, 8)) : ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[c] ?? c,
  );
}

/**
 * The strings each page shows (`Tj` operands of its content streams, decompressed; one byte one
 * character, as the standard fonts' WinAnsi encoding draws them), page by page.
 */
export async function pageTexts(bytes: Uint8Array): Promise<string[][]> {
  const document = await PDFDocument.load(bytes);
  return document.getPages().map((page) => {
    const shown: string[] = [];
    for (const stream of contentStreams(page)) {
      const code = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      for (const match of code.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
        shown.push(match[1] !== undefined ? Buffer.from(match[1].replace(/\s/g, ''), 'hex').toString('latin1') : literal(match[2]!));
      }
    }
    return shown;
  });
}
