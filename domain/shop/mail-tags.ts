/**
 * Tags of the shop's order mails, filled from the order. A tag with no value (a test mail
 * without an order) is replaced by an empty string; unknown tags are left as written.
 */
export interface OrderMailFacts {
  ordinalNumber: number | null;
  email: string;
  firstName: string;
  lastName: string;
  total: string;
  currency: string;
  statusName: string;
  trackingNumber: string;
  deliveryMethod: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function orderMailTags(facts: OrderMailFacts | null): Record<string, string> {
  return {
    NUMER_ZAMOWIENIA: facts?.ordinalNumber != null ? String(facts.ordinalNumber) : '',
    EMAIL: facts?.email ?? '',
    IMIE: facts?.firstName ?? '',
    NAZWISKO: facts?.lastName ?? '',
    KWOTA: facts ? `${facts.total} ${facts.currency}` : '',
    STATUS: facts?.statusName ?? '',
    NUMER_PACZKI: facts?.trackingNumber ?? '',
    SPOSOB_DOSTAWY: facts?.deliveryMethod ?? '',
  };
}

/** Replaces `{{TAG}}` with the tag's value, HTML-escaped. */
export function fillTags(template: string, tags: Record<string, string>): string {
  return template.replace(/\{\{\s*([A-Z0-9_]+)\s*\}\}/g, (whole, name: string) => (Object.hasOwn(tags, name) ? escapeHtml(tags[name]!) : whole));
}
