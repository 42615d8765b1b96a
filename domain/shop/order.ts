/** Shapes stored on an order (spec: Order detail). */
export const INTERNAL_STATUSES = ['placed', 'canceled', 'returned'] as const;
export type InternalStatus = (typeof INTERNAL_STATUSES)[number];

export const ADDRESS_FIELDS = ['first_name', 'last_name', 'company', 'nip', 'address', 'postcode', 'city', 'country', 'phone', 'email'] as const;
export type OrderAddress = Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>;

/**
 * The first of an order's invoice and delivery addresses that `names` its buyer: the buyer's own
 * address speaks first, the address the order was sent to after it (the invoice's buyer, the
 * watermark's names).
 */
export function buyerAddress(
  order: { invoiceAddress?: OrderAddress | null; deliveryAddress?: OrderAddress | null },
  names: (address: OrderAddress) => boolean,
): OrderAddress | null {
  return [order.invoiceAddress, order.deliveryAddress].find((a): a is OrderAddress => a != null && names(a)) ?? null;
}

export interface OrderAttribute {
  name: string;
  value: string;
}

export interface OrderNote {
  content: string;
  created_at: string;
}
