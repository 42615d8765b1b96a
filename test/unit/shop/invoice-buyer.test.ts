import { describe, expect, it } from 'vitest';
import { buildInvoice, type InvoiceSource } from '../../../domain/shop/invoice.ts';
import type { OrderAddress } from '../../../domain/shop/order.ts';

/** Whom an invoice names as its buyer (DESIGN.md section 10: from the invoice address, the company and NIP, else the person). */
const at = new Date('2026-06-01T10:00:00Z');
const buyer = (addresses: { invoiceAddress?: OrderAddress | null; deliveryAddress?: OrderAddress | null }, recipientName: string | null = null) =>
  buildInvoice({
    number: 'FV/2026/1', currency: 'PLN', issuedAt: at, saleAt: at, paidAt: null, timeZone: 'Europe/Warsaw', orderNumber: 1, shopName: 'Sklep',
    seller: null, invoiceAddress: null, deliveryAddress: null, ...addresses, email: 'ewa@example.com', recipientName, paymentMethod: null,
    lines: [{ name: 'Atlas', quantity: 1, vatRate: 23, finalPrice: '49.90' }], costs: [],
  } satisfies InvoiceSource).buyer;

const COMPANY: OrderAddress = { first_name: 'Jan', last_name: 'Nowak', company: 'Łódzka Hurtownia S.A.', nip: '7740001454', address: 'ul. Piotrkowska 1', postcode: '90-001', city: 'Łódź', country: 'Polska' };
const PERSON: OrderAddress = { first_name: ' Ewa ', last_name: 'Lis', address: 'ul. Krótka 2', postcode: '00-950', city: 'Warszawa', country: 'Polska', nip: '7740001454' };

describe('the invoice buyer', () => {
  it('is the invoice address: its company with the NIP, else its person without one', () => {
    expect(buyer({ invoiceAddress: COMPANY, deliveryAddress: PERSON })).toEqual({ name: 'Łódzka Hurtownia S.A.', nip: '7740001454', address: ['ul. Piotrkowska 1', '90-001 Łódź', 'Polska'], recipient: null });
    expect(buyer({ invoiceAddress: PERSON, deliveryAddress: COMPANY }, 'Jan Nowak')).toEqual({ name: 'Ewa Lis', nip: null, address: ['ul. Krótka 2', '00-950 Warszawa', 'Polska'], recipient: 'Jan Nowak' });
  });

  it('is the delivery address when the invoice address names no one', () => {
    expect(buyer({ invoiceAddress: { address: 'ul. Inna 3', city: 'Gdańsk' }, deliveryAddress: PERSON })).toMatchObject({ name: 'Ewa Lis', address: ['ul. Krótka 2', '00-950 Warszawa', 'Polska'] });
    expect(buyer({ invoiceAddress: null, deliveryAddress: COMPANY })).toMatchObject({ name: 'Łódzka Hurtownia S.A.', nip: '7740001454' });
  });

  it("is the order's email when no address names one (an order placed with only an email)", () => {
    expect(buyer({})).toEqual({ name: 'ewa@example.com', nip: null, address: [], recipient: null });
    expect(buyer({ invoiceAddress: { company: '  ', first_name: '' }, deliveryAddress: { city: 'Kraków' } })).toEqual({ name: 'ewa@example.com', nip: null, address: [], recipient: null });
  });
});
