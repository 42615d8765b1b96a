/**
 * The buyer's GA4 client id (issue 40 item 6): what gtag.js keeps in the `_ga` cookie, the cookie's
 * last two parts (`GA1.1.1234567890.1234567890` -> `1234567890.1234567890`: a random number and
 * the first visit's time). A storefront may send the id or the raw cookie value; the order keeps
 * the id, so the purchase event joins the buyer's own session in GA4.
 */
const CLIENT_ID = /^(\d{1,20})\.(\d{1,20})$/;
/** `GA1.<domain depth>.<id>`: the cookie as gtag.js writes it. */
const COOKIE = /^GA1\.\d{1,2}\.(\d{1,20}\.\d{1,20})$/;

/** The client id of `raw` (an id or a `_ga` cookie value), trimmed; null when it is neither. */
export function gaClientId(raw: string): string | null {
  const text = raw.trim();
  const id = COOKIE.exec(text)?.[1] ?? text;
  return CLIENT_ID.test(id) ? id : null;
}

/** The GA4 client id of an order's purchase event: the buyer's own when the order has one, else one per order, never the order's uuid (the secret cart key). */
export function purchaseClientId(order: { analyticsClientId?: string | null; id: number }, shopId: string): string {
  return order.analyticsClientId ?? `${shopId}.${order.id}`;
}
