import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInvoice } from '../../../domain/shop/invoice.ts';
import { money } from '../../../domain/shared/money.ts';

const cents = (n: number) => (n / 100).toFixed(2);
const rate = fc.constantFrom(0, 5, 8, 23);

describe('invoice summary per VAT rate', () => {
  it('adds up to the total (net, VAT and gross) and the gross to the lines and costs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 50 }), vatRate: rate, gross: fc.integer({ min: 0, max: 10_000_000 }) }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.record({ vatRate: rate, gross: fc.integer({ min: 1, max: 100_000 }) }), { maxLength: 2 }),
        (lines, costs) => {
          const at = new Date('2026-06-01T10:00:00Z');
          const invoice = buildInvoice({
            number: 'FV/2026/1', currency: 'PLN', issuedAt: at, saleAt: at, paidAt: null, timeZone: 'Europe/Warsaw', orderNumber: 1, shopName: 'Sklep',
            seller: null, invoiceAddress: null, deliveryAddress: null, email: 'a@example.com', recipientName: null, paymentMethod: null,
            lines: lines.map((l, i) => ({ name: `P${i}`, quantity: l.quantity, vatRate: l.vatRate, finalPrice: cents(l.gross) })),
            costs: costs.map((c, i) => ({ name: `C${i}`, vatRate: c.vatRate, gross: cents(c.gross) })),
          });
          for (const key of ['net', 'vat', 'gross'] as const) {
            const sum = invoice.summary.reduce((acc, row) => acc.plus(row[key]), money(0));
            expect(sum.toFixed(2)).toBe(money(invoice.total[key]).toFixed(2));
          }
          for (const row of invoice.summary) expect(money(row.net).plus(row.vat).toFixed(2)).toBe(money(row.gross).toFixed(2));
          const expected = [...lines, ...costs].reduce((acc, l) => acc + l.gross, 0);
          expect(money(invoice.total.gross).toFixed(2)).toBe(cents(expected));
        },
      ),
    );
  });
});
