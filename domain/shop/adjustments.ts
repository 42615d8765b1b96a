/**
 * A promotion's request to lower an amount (Medusa: compute-actions). `code` names its source.
 * Its own module so the pricing (which applies adjustments) and the discount rules (which make
 * them) both import it without importing each other.
 */
export type Adjustment =
  | { action: 'addItemAdjustment'; line: number; amount: string; code: string }
  | { action: 'addShippingAdjustment'; amount: string; code: string };
export type ItemAdjustment = Extract<Adjustment, { action: 'addItemAdjustment' }>;
