/**
 * The absolute links the system writes into replies and mails (DESIGN.md section 10, "Links in
 * mails open as delivered"): `base` is the public base address (no trailing slash).
 */
const trimmed = (base: string) => base.replace(/\/+$/, '');

/** An invoice's PDF as the shop's API serves it (scope `read`). */
export function operatorInvoiceLink(base: string, orderId: number, invoiceId: number): string {
  return `${trimmed(base)}/api/v1/orders/${orderId}/invoices/${invoiceId}`;
}

/** An invoice's PDF as the buyer opens it from the storefront (the order's secret uuid is the key). */
export function buyerInvoiceLink(base: string, subdomain: string, uuid: string, invoiceId: number): string {
  return `${trimmed(base)}/store/v1/${encodeURIComponent(subdomain)}/orders/${uuid}/invoices/${invoiceId}`;
}

/** A download code's link (the public route `GET /downloads/:token`). */
export function downloadLink(base: string, token: string): string {
  return `${trimmed(base)}/downloads/${token}`;
}
