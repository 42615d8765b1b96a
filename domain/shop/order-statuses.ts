/** Order statuses: the built-ins every shop starts with, and the kind of a hand-made one. */
export const ORDER_STATUS_KINDS = [
  'NewDefaultOrderStatus',
  'PaidDefaultOrderStatus',
  'SentDefaultOrderStatus',
  'CanceledDefaultOrderStatus',
  'ReturnedDefaultOrderStatus',
  'UserOrderStatus',
] as const;
export type OrderStatusKind = (typeof ORDER_STATUS_KINDS)[number];

/** Made with every shop, in this order. `New` is a placed order's status; clearing sets `Paid`. */
export const BUILT_IN_ORDER_STATUSES: readonly { name: string; kind: Exclude<OrderStatusKind, 'UserOrderStatus'> }[] = [
  { name: 'New', kind: 'NewDefaultOrderStatus' },
  { name: 'Paid', kind: 'PaidDefaultOrderStatus' },
  { name: 'Sent', kind: 'SentDefaultOrderStatus' },
  { name: 'Canceled', kind: 'CanceledDefaultOrderStatus' },
  { name: 'Returned', kind: 'ReturnedDefaultOrderStatus' },
];

export function isBuiltInStatus(kind: OrderStatusKind): boolean {
  return kind !== 'UserOrderStatus';
}
