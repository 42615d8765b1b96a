/**
 * The seller block of a shop's invoices (`PATCH /admin/v1/shops/:shop_id {invoice_seller}`,
 * DESIGN.md section 10). Without it an invoice names the shop alone.
 */
export interface InvoiceSeller {
  name: string;
  nip: string;
  address: string;
  postcode: string;
  city: string;
  country: string;
  bank_account?: string | null;
}

const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];

/** The NIP's digits: dashes and spaces, and a leading `PL`, dropped. */
export function nipDigits(nip: string): string {
  return nip.trim().replace(/^PL/i, '').replace(/[\s-]/g, '');
}

/** A Polish tax id: ten digits whose weighted sum mod 11 is the last digit (never 10). */
export function isValidNip(nip: string): boolean {
  const digits = nipDigits(nip);
  if (!/^\d{10}$/.test(digits)) return false;
  const sum = NIP_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  const check = sum % 11;
  return check !== 10 && check === Number(digits[9]);
}
