import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { OrderItem } from '../../../domain/access/order-contents.ts';
import { tenantFilters } from '../../tenant.ts';
import { Platform } from './platform.ts';

export const ORDER_STATUSES = ['registered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** An order registered by the caller's shop; `externalId` is the caller's idempotency key. */
export const AccessOrder = defineEntity({
  name: 'AccessOrder',
  tableName: 'orders',
  filters: tenantFilters,
  uniques: [{ properties: ['platform', 'externalId'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
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
  },
});
export type IAccessOrder = InferEntity<typeof AccessOrder>;
