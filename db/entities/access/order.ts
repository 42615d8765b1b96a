import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';
import type { OrderItem } from '../../../domain/access/order-contents.ts';

export const ORDER_STATUSES = ['registered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order registered by the caller's shop; `externalId` is the caller's idempotency key. */
export const AccessOrder = defineEntity({
  name: 'AccessOrder',
  tableName: 'orders',
  uniques: [{ properties: ['platform', 'externalId'] }],
  // A person's order files are read by e-mail without letter case (issue 40 item 5).
  indexes: [{ name: 'orders_platform_id_lower_email_index', expression: 'create index "orders_platform_id_lower_email_index" on "orders" ("platform_id", lower("email"))' }],
  ...platformOwned({
    externalId: p.string(),
    email: p.string(),
    ordinalNumber: p.string().nullable(),
    giftCode: p.string().nullable(),
    /** `ordered_contents` as sent, `file_keys` included. */
    orderedContents: p.json<OrderItem[]>(),
    status: p.enum([...ORDER_STATUSES]).default('registered'),
    seq: p.bigint('number'),
    createdAt: p.datetime().onCreate(() => new Date()),
    fulfilledAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
  }),
});
export type IAccessOrder = InferEntity<typeof AccessOrder>;
