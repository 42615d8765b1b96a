/**
 * An invoice document as a PDF (pdf-lib): A4, DejaVu Sans embedded (subset) so Polish letters
 * print as written. Pure: the same document gives the same bytes (the metadata dates are the
 * document's `issued_at`, no producer clock, pdf-lib's suffixes come from its seeded generator).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { InvoiceDocument, InvoiceLine } from '../../domain/shop/invoice.ts';

const require = createRequire(import.meta.url);
const fontFile = (name: string) => require.resolve(`dejavu-fonts-ttf/ttf/${name}`);
let fonts: Promise<{ regular: Uint8Array; bold: Uint8Array }> | null = null;
/** The font files, read once per process. */
function fontBytes() {
  fonts ??= Promise.all([readFile(fontFile('DejaVuSans.ttf')), readFile(fontFile('DejaVuSans-Bold.ttf'))]).then(([regular, bold]) => ({ regular, bold }));
  return fonts;
}

/** `1234.5` as `1 234,50`: the Polish way. */
export function plAmount(amount: string): string {
  const [whole = '0', fraction = '00'] = amount.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${amount.startsWith('-') ? '-' : ''}${grouped},${fraction.padEnd(2, '0')}`;
}

const rate = (vatRate: number) => `${vatRate}%`;

const PAGE = { width: 595.28, height: 841.89, margin: 40 };
const GREY = rgb(0.45, 0.45, 0.45);
const LINE = rgb(0.75, 0.75, 0.75);

interface Pen {
  page: PDFPage;
  y: number;
}

/** Text cut into lines no wider than `width`, words kept whole where they fit. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !current) current = next;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines.length ? lines : [''];
}

// Columns of the lines' table: x of each column's left edge (numbers are right-aligned to the next).
const COLUMNS = [
  { title: 'Lp.', x: 40, right: false },
  { title: 'Nazwa', x: 62, right: false },
  { title: 'Ilość', x: 268, right: true },
  { title: 'Cena brutto', x: 298, right: true },
  { title: 'VAT', x: 358, right: true },
  { title: 'Netto', x: 392, right: true },
  { title: 'Kwota VAT', x: 452, right: true },
  { title: 'Brutto', x: 505, right: true },
] as const;
const TABLE_RIGHT = PAGE.width - PAGE.margin;

export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const bytes = await fontBytes();
  const font = await pdf.embedFont(bytes.regular, { subset: true, customName: 'DejaVuSans' });
  const bold = await pdf.embedFont(bytes.bold, { subset: true, customName: 'DejaVuSans-Bold' });
  const issued = new Date(invoice.issued_at);
  const title = invoice.kind === 'correction' ? 'Faktura korygująca' : 'Faktura VAT';
  pdf.setTitle(`${title} ${invoice.number}`);
  pdf.setAuthor(invoice.seller.name);
  pdf.setCreator('coursehub');
  pdf.setProducer('coursehub (pdf-lib)');
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);

  const pen: Pen = { page: pdf.addPage([PAGE.width, PAGE.height]), y: PAGE.height - PAGE.margin };
  const text = (value: string, x: number, options: { size?: number; f?: PDFFont; color?: ReturnType<typeof rgb>; right?: number } = {}) => {
    const size = options.size ?? 9;
    const f = options.f ?? font;
    const at = options.right !== undefined ? options.right - f.widthOfTextAtSize(value, size) : x;
    pen.page.drawText(value, { x: at, y: pen.y, size, font: f, color: options.color ?? rgb(0, 0, 0) });
  };
  const down = (by: number) => {
    pen.y -= by;
    if (pen.y < PAGE.margin + 20) {
      pen.page = pdf.addPage([PAGE.width, PAGE.height]);
      pen.y = PAGE.height - PAGE.margin;
    }
  };
  const rule = () => pen.page.drawLine({ start: { x: PAGE.margin, y: pen.y + 9 }, end: { x: TABLE_RIGHT, y: pen.y + 9 }, thickness: 0.5, color: LINE });

  // Heading: kind and number, the corrected number, the dates.
  text(`${title} ${invoice.number}`, PAGE.margin, { size: 16, f: bold });
  text(`Data wystawienia: ${invoice.issue_date}`, 0, { right: TABLE_RIGHT });
  down(13);
  text(`Data sprzedaży: ${invoice.sale_date}`, 0, { right: TABLE_RIGHT });
  if (invoice.corrects) text(`Korekta faktury ${invoice.corrects}`, PAGE.margin, { size: 10, f: bold });
  down(13);
  text(`Zamówienie nr ${invoice.order_number}`, PAGE.margin, { color: GREY });
  down(28);

  // Seller and buyer side by side.
  const party = (heading: string, p: { name: string; nip: string | null; address: string[] }, extra: string[]) => [
    { value: heading, f: bold, color: GREY },
    ...wrap(p.name, bold, 10, 240).map((value) => ({ value, f: bold, color: undefined })),
    ...p.address.map((value) => ({ value, f: font, color: undefined })),
    ...(p.nip ? [{ value: `NIP: ${p.nip}`, f: font, color: undefined }] : []),
    ...extra.map((value) => ({ value, f: font, color: undefined })),
  ];
  const left = party('Sprzedawca', invoice.seller, invoice.seller.bank_account ? [`Konto: ${invoice.seller.bank_account}`] : []);
  const right = party('Nabywca', invoice.buyer, invoice.buyer.recipient ? [`Odbiorca: ${invoice.buyer.recipient}`] : []);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const l = left[i];
    const r = right[i];
    if (l) text(l.value, PAGE.margin, { size: 10, f: l.f, ...(l.color ? { color: l.color } : {}) });
    if (r) text(r.value, 310, { size: 10, f: r.f, ...(r.color ? { color: r.color } : {}) });
    down(13);
  }
  down(16);

  // The lines.
  const header = () => {
    COLUMNS.forEach((c, i) => text(c.title, c.x, { f: bold, size: 8, ...(c.right ? { right: (COLUMNS[i + 1]?.x ?? TABLE_RIGHT + 4) - 4 } : {}) }));
    down(14);
    rule();
    down(2);
  };
  header();
  const cells = (line: InvoiceLine) => [String(line.quantity), plAmount(line.unit_gross), rate(line.vat_rate), plAmount(line.net), plAmount(line.vat), plAmount(line.gross)];
  invoice.lines.forEach((line, index) => {
    const names = wrap(line.name, font, 9, 268 - 62 - 30);
    text(`${index + 1}.`, COLUMNS[0].x);
    cells(line).forEach((value, i) => text(value, 0, { right: (COLUMNS[i + 3]?.x ?? TABLE_RIGHT + 4) - 4 }));
    names.forEach((name, i) => {
      if (i > 0) down(11);
      text(name, COLUMNS[1].x);
    });
    down(14);
  });
  rule();
  down(14);

  // Summary per rate, then the total.
  const sumColumns = [392, 452, 505, TABLE_RIGHT + 4];
  text('Podsumowanie według stawek VAT', 62, { f: bold });
  text('Stawka', 0, { f: bold, size: 8, right: sumColumns[0]! - 4 });
  ['Netto', 'Kwota VAT', 'Brutto'].forEach((t, i) => text(t, 0, { f: bold, size: 8, right: sumColumns[i + 1]! - 4 }));
  down(13);
  for (const row of invoice.summary) {
    text(rate(row.vat_rate), 0, { right: sumColumns[0]! - 4 });
    [row.net, row.vat, row.gross].forEach((amount, i) => text(plAmount(amount), 0, { right: sumColumns[i + 1]! - 4 }));
    down(13);
  }
  text('Razem', 0, { f: bold, right: sumColumns[0]! - 4 });
  [invoice.total.net, invoice.total.vat, invoice.total.gross].forEach((amount, i) => text(plAmount(amount), 0, { f: bold, right: sumColumns[i + 1]! - 4 }));
  down(28);

  const due = invoice.kind === 'correction' ? 'Do zwrotu' : 'Razem do zapłaty';
  text(`${due}: ${plAmount(invoice.total.gross.replace('-', ''))} ${invoice.currency}`, PAGE.margin, { size: 12, f: bold });
  down(18);
  text(`Sposób płatności: ${invoice.payment.method ?? '—'}`, PAGE.margin);
  down(13);
  text(invoice.payment.paid_date ? `Zapłacono: ${invoice.payment.paid_date}` : 'Nie zapłacono', PAGE.margin);
  down(13);

  return pdf.save({ useObjectStreams: false });
}
