/**
 * An invoice as a document (DESIGN.md section 10, "Invoices are documents"): everything its PDF
 * prints, built once when it is issued and stored as JSON, so the same bytes render again. Amounts
 * are gross (section 7); each line's VAT is the pricing's rule (`vatOfGross`, vat.ts), the summary
 * per rate adds the lines up, and the total adds the summary up.
 */
import type { Decimal } from 'decimal.js';
import { cents, money, toMoneyString, ZERO } from '../shared/money.ts';
import { buyerAddress, type OrderAddress } from './order.ts';
import type { InvoiceSeller } from './invoice-seller.ts';
import { vatOfGross } from './vat.ts';

export type InvoiceKind = 'invoice' | 'correction';

export const INVOICE_PREFIX: Record<InvoiceKind, string> = { invoice: 'FV', correction: 'KOR' };

/** `FV/<year>/<n>` or `KOR/<year>/<n>`: the year in the shop's zone, n from 1 each year per shop and kind. */
export function invoiceNumber(kind: InvoiceKind, year: number, n: number): string {
  return `${INVOICE_PREFIX[kind]}/${year}/${n}`;
}

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** The year of an instant in a time zone (an invoice's numbering year). */
export function yearIn(instant: Date, timeZone: string): number {
  return Number(dayIn(instant, timeZone).slice(0, 4));
}

export interface InvoiceParty {
  name: string;
  nip: string | null;
  /** Address lines as printed (street, postcode and city, country). */
  address: string[];
}

export interface InvoiceLine {
  name: string;
  quantity: number;
  unit_gross: string;
  vat_rate: number;
  net: string;
  vat: string;
  gross: string;
}

export interface VatSummaryRow {
  vat_rate: number;
  net: string;
  vat: string;
  gross: string;
}

/** The stored document (`shop_invoices.document`). Dates are days in the shop's zone. */
export interface InvoiceDocument {
  kind: InvoiceKind;
  number: string;
  /** The corrected invoice's number (a correction), else null. */
  corrects: string | null;
  currency: string;
  issue_date: string;
  sale_date: string;
  /** The instant the document was issued (ISO), also the PDF's metadata dates. */
  issued_at: string;
  order_number: number;
  seller: InvoiceParty & { bank_account: string | null };
  buyer: InvoiceParty & { recipient: string | null };
  lines: InvoiceLine[];
  summary: VatSummaryRow[];
  total: { net: string; vat: string; gross: string };
  payment: { method: string | null; paid_date: string | null };
}

/** A line as the order stores it, gross, after its discount. */
export interface InvoiceSourceLine {
  name: string;
  quantity: number;
  vatRate: number;
  finalPrice: string;
}

/** A cost of its own rate (delivery, payment), gross after its discount; left out when zero. */
export interface InvoiceSourceCost {
  name: string;
  gross: string;
  vatRate: number;
}

export interface InvoiceSource {
  number: string;
  currency: string;
  issuedAt: Date;
  /** The sale's day: the paid date, else the issue date. */
  saleAt: Date;
  paidAt: Date | null;
  timeZone: string;
  orderNumber: number;
  shopName: string;
  seller: InvoiceSeller | null;
  invoiceAddress: OrderAddress | null;
  /** Whom the order was sent to: the buyer when the invoice address names no one. */
  deliveryAddress: OrderAddress | null;
  /** The order's email: the buyer's name when no address names one. */
  email: string;
  recipientName: string | null;
  lines: readonly InvoiceSourceLine[];
  costs: readonly InvoiceSourceCost[];
  paymentMethod: string | null;
}

/** One printed line: its VAT by the pricing's rule, net the rest. */
export function invoiceLine(name: string, quantity: number, gross: Decimal.Value, vatRate: number): InvoiceLine {
  const g = cents(gross);
  const vat = vatOfGross(g, vatRate);
  return {
    name,
    quantity,
    unit_gross: toMoneyString(quantity === 0 ? g : g.dividedBy(quantity)),
    vat_rate: vatRate,
    net: toMoneyString(g.minus(vat)),
    vat: toMoneyString(vat),
    gross: toMoneyString(g),
  };
}

/** The lines added up per VAT rate, rates in descending order. */
export function vatSummary(lines: readonly InvoiceLine[]): VatSummaryRow[] {
  const byRate = new Map<number, { net: Decimal; vat: Decimal; gross: Decimal }>();
  for (const line of lines) {
    const row = byRate.get(line.vat_rate) ?? { net: ZERO, vat: ZERO, gross: ZERO };
    byRate.set(line.vat_rate, { net: row.net.plus(line.net), vat: row.vat.plus(line.vat), gross: row.gross.plus(line.gross) });
  }
  return [...byRate.entries()]
    .sort(([a], [b]) => b - a)
    .map(([rate, row]) => ({ vat_rate: rate, net: toMoneyString(row.net), vat: toMoneyString(row.vat), gross: toMoneyString(row.gross) }));
}

function totalOf(summary: readonly VatSummaryRow[]): InvoiceDocument['total'] {
  const add = (key: 'net' | 'vat' | 'gross') => toMoneyString(summary.reduce((acc, row) => acc.plus(row[key]), ZERO));
  return { net: add('net'), vat: add('vat'), gross: add('gross') };
}

function sellerOf(source: InvoiceSource): InvoiceDocument['seller'] {
  const s = source.seller;
  if (!s) return { name: source.shopName, nip: null, address: [], bank_account: null };
  return { name: s.name, nip: s.nip, address: [s.address, `${s.postcode} ${s.city}`, s.country].filter((l) => l.trim() !== ''), bank_account: s.bank_account ?? null };
}

/**
 * The buyer: the first of the invoice and delivery addresses that names one (a company, else a
 * person), with the company's NIP and that address's lines; an order whose addresses name no one
 * (placed with only an email) names its email, so the document always says whom it was issued to.
 * The recipient is named apart.
 */
function buyerOf(source: InvoiceSource): InvoiceDocument['buyer'] {
  const named = buyerAddress(source, (a) => partyName(a) !== '');
  const a = named ?? {};
  const company = a.company?.trim() ? a.company.trim() : null;
  const nip = company && a.nip?.trim() ? a.nip.trim() : null;
  const place = [a.postcode, a.city].filter((p) => p && p.trim() !== '').join(' ');
  return {
    name: named ? partyName(named) : source.email,
    nip,
    address: [a.address ?? '', place, a.country ?? ''].filter((l) => l.trim() !== ''),
    recipient: source.recipientName?.trim() ? source.recipientName.trim() : null,
  };
}

/** An address's company, else its person's names; empty when it names no one. */
function partyName(a: OrderAddress): string {
  if (a.company?.trim()) return a.company.trim();
  return [a.first_name, a.last_name].filter((p) => p && p.trim() !== '').map((p) => p!.trim()).join(' ');
}

/** The invoice of an order's invoiced lines and its costs. */
export function buildInvoice(source: InvoiceSource): InvoiceDocument {
  const lines = [
    ...source.lines.map((l) => invoiceLine(l.name, l.quantity, l.finalPrice, l.vatRate)),
    ...source.costs.filter((c) => !money(c.gross).isZero()).map((c) => invoiceLine(c.name, 1, c.gross, c.vatRate)),
  ];
  const summary = vatSummary(lines);
  return {
    kind: 'invoice',
    number: source.number,
    corrects: null,
    currency: source.currency,
    issue_date: dayIn(source.issuedAt, source.timeZone),
    sale_date: dayIn(source.saleAt, source.timeZone),
    issued_at: source.issuedAt.toISOString(),
    order_number: source.orderNumber,
    seller: sellerOf(source),
    buyer: buyerOf(source),
    lines,
    summary,
    total: totalOf(summary),
    payment: { method: source.paymentMethod, paid_date: source.paidAt ? dayIn(source.paidAt, source.timeZone) : null },
  };
}

const negate = (amount: string) => (money(amount).isZero() ? '0.00' : toMoneyString(money(amount).negated()));

/** The correction that takes an invoice back whole: every line negated, naming the corrected number. */
export function correctionOf(invoice: InvoiceDocument, number: string, issuedAt: Date, timeZone: string): InvoiceDocument {
  const lines = invoice.lines.map((l) => ({ ...l, quantity: -l.quantity, net: negate(l.net), vat: negate(l.vat), gross: negate(l.gross) }));
  const summary = vatSummary(lines);
  return {
    ...invoice,
    kind: 'correction',
    number,
    corrects: invoice.number,
    issue_date: dayIn(issuedAt, timeZone),
    issued_at: issuedAt.toISOString(),
    lines,
    summary,
    total: totalOf(summary),
  };
}

/** What an order stores of its costs (the pricing's amounts at placing). */
export interface OrderCosts {
  deliveryMethod: string | null;
  deliveryCost: string;
  deliveryVatRate: number | null;
  paymentMethod: string | null;
  paymentCost: string;
  paymentVatRate: number | null;
  /** The lines' discounts and the delivery's together (`total_discount`). */
  totalDiscount: string;
}

/**
 * The delivery and payment costs as lines of their own rates: the delivery after its discount
 * (the order's discount less its lines' discounts, every line's, invoiced or not).
 */
export function orderCostLines(order: OrderCosts, lineDiscounts: readonly string[]): InvoiceSourceCost[] {
  const deliveryDiscount = money(order.totalDiscount).minus(lineDiscounts.reduce((acc, d) => acc.plus(d), ZERO));
  return [
    { name: `Dostawa: ${order.deliveryMethod ?? '—'}`, gross: toMoneyString(money(order.deliveryCost).minus(deliveryDiscount)), vatRate: order.deliveryVatRate ?? 0 },
    { name: `Płatność: ${order.paymentMethod ?? '—'}`, gross: toMoneyString(order.paymentCost), vatRate: order.paymentVatRate ?? 0 },
  ];
}
