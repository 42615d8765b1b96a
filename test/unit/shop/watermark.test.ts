import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buyerOf, stampedPages, UnreadablePdf, watermarkPdf, watermarkText } from '../../../domain/shop/watermark.ts';
import { makePdf, pageTexts } from '../../helpers/pdf.ts';

const buyer = { firstName: 'Anna', lastName: 'Nowak', email: 'anna@example.com' };

describe('watermarkText', () => {
  it('fills the three tags, leaves unknown ones, escapes nothing and folds whitespace', () => {
    expect(watermarkText('Licencja: {{IMIE}} {{NAZWISKO}} <{{EMAIL}}> {{KWOTA}}', buyer)).toBe('Licencja: Anna Nowak <anna@example.com> {{KWOTA}}');
    expect(watermarkText('  {{ IMIE }}\n&\t{{NAZWISKO}} ', buyer)).toBe('Anna & Nowak');
    expect(watermarkText('{{IMIE}}', { ...buyer, firstName: '' })).toBe('');
  });
});

describe('buyerOf', () => {
  it('takes the names of the invoice address, else the delivery address, and the order email', () => {
    const invoice = { first_name: 'Jan', last_name: 'Kowalski' };
    const delivery = { first_name: 'Ewa', last_name: 'Lis' };
    expect(buyerOf({ email: 'a@x.pl', invoiceAddress: invoice, deliveryAddress: delivery })).toEqual({ firstName: 'Jan', lastName: 'Kowalski', email: 'a@x.pl' });
    expect(buyerOf({ email: 'a@x.pl', invoiceAddress: { company: 'ACME' }, deliveryAddress: delivery })).toEqual({ firstName: 'Ewa', lastName: 'Lis', email: 'a@x.pl' });
    expect(buyerOf({ email: 'a@x.pl', invoiceAddress: null, deliveryAddress: null })).toEqual({ firstName: '', lastName: '', email: 'a@x.pl' });
  });
});

describe('stampedPages', () => {
  it('stamps pages 1, 1+n, 1+2n, ...', () => {
    expect(stampedPages(7, 3)).toEqual([0, 3, 6]);
    expect(stampedPages(3, 1)).toEqual([0, 1, 2]);
    expect(stampedPages(2, 5)).toEqual([0]);
    expect(stampedPages(0, 1)).toEqual([]);
    expect(stampedPages(3, 0)).toEqual([0, 1, 2]);
  });
});

describe('watermarkPdf', () => {
  it('draws the text on every n-th page only, the pages\' own text kept', async () => {
    const stamped = await watermarkPdf(await makePdf(7), 'Anna Nowak anna@example.com', 3);
    const texts = await pageTexts(stamped);
    expect(texts).toHaveLength(7);
    texts.forEach((shown, index) => {
      expect(shown).toContain(`Page ${index + 1}`);
      expect(shown.includes('Anna Nowak anna@example.com'), `page ${index + 1}`).toBe([0, 3, 6].includes(index));
    });
  });

  it('draws letters Helvetica lacks as their base letter and keeps the ones it has', async () => {
    const texts = await pageTexts(await watermarkPdf(await makePdf(1), 'Łukasz Wróbel 語', 1));
    expect(texts[0]).toContain(Buffer.from('Lukasz Wróbel ?', 'latin1').toString('latin1'));
  });

  it('refuses bytes pdf-lib cannot open', async () => {
    await expect(watermarkPdf(Buffer.from('%PDF-1.4\nnot really'), 'x', 1)).rejects.toBeInstanceOf(UnreadablePdf);
  });

  it('keeps the page count of the original', async () => {
    const stamped = await watermarkPdf(await makePdf(4), 'x', 2);
    expect((await PDFDocument.load(stamped)).getPageCount()).toBe(4);
  });
});
