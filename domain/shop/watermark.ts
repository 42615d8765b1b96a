/**
 * The buyer's watermark on a downloaded PDF (spec: Electronic content `watermark`,
 * `watermark_interval`). CPU work on bytes only: no I/O, no clock; the caller reads and serves the file.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { buyerAddress, type OrderAddress } from './order.ts';

/** Who bought the file: the tags `{{IMIE}}`, `{{NAZWISKO}}` and `{{EMAIL}}`. */
export interface Buyer {
  firstName: string;
  lastName: string;
  email: string;
}

/** The names of the first of the invoice and delivery addresses that has one, and the order's email. */
export function buyerOf(order: { email: string; invoiceAddress?: OrderAddress | null; deliveryAddress?: OrderAddress | null }): Buyer {
  const named = buyerAddress(order, (a) => Boolean(a.first_name?.trim() || a.last_name?.trim()));
  return { firstName: named?.first_name?.trim() ?? '', lastName: named?.last_name?.trim() ?? '', email: order.email };
}

/** The watermark with its tags filled (plain text, nothing escaped); unknown tags stay as written. */
export function watermarkText(template: string, buyer: Buyer): string {
  const tags: Record<string, string> = { IMIE: buyer.firstName, NAZWISKO: buyer.lastName, EMAIL: buyer.email };
  return template.replace(/\{\{\s*([A-Z0-9_]+)\s*\}\}/g, (whole, name: string) => tags[name] ?? whole).replace(/\s+/g, ' ').trim();
}

/** The 0-based indexes of the stamped pages: 1, 1+n, 1+2n, ... in 1-based numbers. */
export function stampedPages(pageCount: number, interval: number): number[] {
  const step = Math.max(1, Math.floor(interval) || 1);
  const pages: number[] = [];
  for (let index = 0; index < pageCount; index += step) pages.push(index);
  return pages;
}

/** Letters the standard font cannot draw: the base letter (`Ł` -> `L`, `ś` -> `s`), else `?`. */
const FALLBACKS: Record<string, string> = { 'Ł': 'L', 'ł': 'l', 'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i' };

/** The letter without its diacritics (`Ł` -> `L`, `ś` -> `s`); other characters as they are. */
export function baseLetters(char: string): string {
  return FALLBACKS[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
}

export function drawableText(text: string, font: PDFFont): string {
  const drawable = new Set(font.getCharacterSet());
  return [...text]
    .map((char) => {
      if (drawable.has(char.codePointAt(0)!)) return char;
      const base = baseLetters(char);
      return [...base].every((c) => drawable.has(c.codePointAt(0)!)) && base ? base : '?';
    })
    .join('');
}

export class UnreadablePdf extends Error {}

const FONT_SIZE = 8;
const MARGIN = 18;

/**
 * The PDF with `text` drawn at the foot of pages 1, 1+interval, 1+2*interval, ... in grey
 * Helvetica, shrunk to the page's width. Throws `UnreadablePdf` when pdf-lib cannot open the bytes
 * (damaged or encrypted files).
 */
export async function watermarkPdf(bytes: Uint8Array, text: string, interval: number): Promise<Uint8Array> {
  let document: PDFDocument;
  let pages: PDFPage[];
  try {
    // pdf-lib is lenient on load; a file without a readable page tree fails on getPages.
    document = await PDFDocument.load(bytes, { updateMetadata: false });
    pages = document.getPages();
  } catch (error) {
    throw new UnreadablePdf(`the PDF cannot be read: ${(error as Error).message}`);
  }
  const font = await document.embedFont(StandardFonts.Helvetica);
  const line = drawableText(text, font);
  for (const index of stampedPages(pages.length, interval)) {
    const page = pages[index]!;
    const box = page.getMediaBox();
    const width = font.widthOfTextAtSize(line, FONT_SIZE);
    const size = Math.max(2, Math.min(FONT_SIZE, (FONT_SIZE * (box.width - 2 * MARGIN)) / Math.max(width, 1)));
    page.drawText(line, { x: box.x + MARGIN, y: box.y + MARGIN / 2, size, font, color: rgb(0.45, 0.45, 0.45), opacity: 0.8 });
  }
  return document.save();
}
