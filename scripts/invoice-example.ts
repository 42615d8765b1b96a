/**
 * Renders the sample invoice of the README (docs/invoice-example.pdf), from the same document
 * builder and renderer the worker and the api use. Its picture: `pdftoppm -png -r 60 -singlefile
 * docs/invoice-example.pdf docs/invoice-example` (poppler-utils).
 */
import { writeFile } from 'node:fs/promises';
import { buildInvoice } from '../domain/shop/invoice.ts';
import { renderInvoicePdf } from '../adapters/invoices/invoice-pdf.ts';

const at = new Date('2026-12-05T10:00:00Z');
const invoice = buildInvoice({
  number: 'FV/2026/1',
  currency: 'PLN',
  issuedAt: at,
  saleAt: at,
  paidAt: at,
  timeZone: 'Europe/Warsaw',
  orderNumber: 12,
  shopName: 'Księgarnia Żółw',
  seller: { name: 'Księgarnia Żółw sp. z o.o.', nip: '1234563218', address: 'ul. Źródlana 5', postcode: '90-001', city: 'Łódź', country: 'Polska', bank_account: 'PL61 1090 1014 0000 0712 1981 2874' },
  deliveryAddress: null,
  email: 'zofia@example.com',
  invoiceAddress: { first_name: 'Zofia', last_name: 'Żak', company: 'Pracownia Gęśla Jaźń', nip: '7251801126', address: 'ul. Świętokrzyska 12/4', postcode: '31-042', city: 'Kraków', country: 'Polska' },
  recipientName: 'Zofia Żak',
  lines: [
    { name: 'Pan Tadeusz — wydanie ilustrowane, z komentarzem i przypisami', quantity: 2, vatRate: 5, finalPrice: '79.80' },
    { name: 'Kurs: Zarządzanie zespołem', quantity: 1, vatRate: 23, finalPrice: '299.00' },
  ],
  costs: [{ name: 'Dostawa: Paczkomat', gross: '12.99', vatRate: 23 }],
  paymentMethod: 'Przelew online',
});
const file = process.argv[2] ?? 'docs/invoice-example.pdf';
await writeFile(file, await renderInvoicePdf(invoice));
console.log(`${invoice.number} written to ${file}`);
