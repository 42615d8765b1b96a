/** Shapes stored on an order (spec: Order detail). */
export const INTERNAL_STATUSES = ['placed', 'canceled', 'returned'] as const;
export type InternalStatus = (typeof INTERNAL_STATUSES)[number];

export const ADDRESS_FIELDS = ['first_name', 'last_name', 'company', 'nip', 'address', 'postcode', 'city', 'country', 'phone', 'email'] as const;
export type OrderAddress = Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>;

export interface OrderAttribute {
  name: string;
  value: string;
}

export interface OrderNote {
  content: string;
  created_at: string;
}
