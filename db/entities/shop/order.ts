import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { OrderAddress, OrderAttribute, OrderNote } from '../../../domain/shop/order.ts';
import type { InternalStatus } from '../../../domain/shop/order.ts';
import { OrderStatus } from './order-status.ts';
import { shopOwned } from './shop-owned.ts';

const money = () => p.decimal('string').precision(12).scale(2);

/**
 * A shop order (spec: Order). Amounts are the pricing module's result at placing time; names of
 * the delivery and payment types are kept as they were then. `uuid` is a secret cart key.
 */
export const Order = defineEntity({
  name: 'Order',
  tableName: 'shop_orders',
  uniques: [{ properties: ['shop', 'ordinalNumber'] }, { properties: ['uuid'] }],
  indexes: [
    { properties: ['shop', 'placedAt'] },
    { properties: ['shop', 'email'] },
    // Covering indexes of the reports (db/repositories/shop/reports.ts): index-only aggregates.
    {
      name: 'shop_orders_report_placed_index',
      expression: 'create index "shop_orders_report_placed_index" on "shop_orders" ("shop_id", "internal_status", "placed_at") include ("total", "paid")',
    },
    {
      name: 'shop_orders_report_paid_index',
      expression:
        'create index "shop_orders_report_paid_index" on "shop_orders" ("shop_id", "paid_at") include ("internal_status", "total", "payment_method") where "paid"',
    },
  ],
  ...shopOwned({
    uuid: p.uuid(),
    ordinalNumber: p.integer(),
    internalStatus: p.string().length(16).$type<InternalStatus>().default('placed'),
    orderStatus: () => p.manyToOne(OrderStatus).ref(),
    email: p.string(),
    currency: p.string().length(3),
    productsCost: money(),
    deliveryCost: money(),
    paymentCost: money(),
    giftPackingCost: money().defaultRaw('0.00'),
    totalDiscount: money(),
    total: money(),
    deliveryTypeId: p.integer().nullable(),
    deliveryMethod: p.string().nullable(),
    deliveryVatRate: p.integer().nullable(),
    paymentTypeId: p.integer().nullable(),
    paymentMethod: p.string().nullable(),
    paymentVatRate: p.integer().nullable(),
    cashOnDelivery: p.boolean().default(false),
    discountCode: p.string().nullable(),
    discountCodeId: p.integer().nullable(),
    paid: p.boolean().default(false),
    paidAt: p.datetime().nullable(),
    clearedAt: p.datetime().nullable(),
    invoiceNumber: p.string().nullable(),
    transactionId: p.string().nullable(),
    ref: p.string().nullable(),
    subscriberIdentifier: p.string().nullable(),
    comment: p.text().default(''),
    deliveryPointCode: p.string().nullable(),
    trackingNumber: p.string().default(''),
    trackingUrl: p.string().default(''),
    deliveryAddress: p.json<OrderAddress>().nullable(),
    invoiceAddress: p.json<OrderAddress>().nullable(),
    invoiceRecipientName: p.string().default(''),
    placedIp: p.string().length(45).nullable(),
    /** The buyer's GA4 client id (`<n>.<n>`, from the `_ga` cookie) when the storefront cart was given one. */
    analyticsClientId: p.string().length(64).nullable(),
    orderAttributes: p.json<OrderAttribute[]>(),
    notes: p.json<OrderNote[]>(),
    newsletter: p.boolean().default(false),
    placedAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IOrder = InferEntity<typeof Order>;

/** One line of an order, priced: `price` = unit × quantity, `final_price` = price − discount. */
export const OrderItem = defineEntity({
  name: 'OrderItem',
  tableName: 'shop_order_items',
  // The list's product and SKU filters read the order ids from the index alone (issue 26).
  indexes: [{ properties: ['order'] }, { properties: ['shop', 'productId', 'order'] }, { properties: ['shop', 'sku', 'order'] }],
  ...shopOwned({
    order: () => p.manyToOne(Order).ref(),
    productId: p.integer().nullable(),
    name: p.string(),
    sku: p.string().default(''),
    quantity: p.integer(),
    unitPrice: money(),
    vatRate: p.integer(),
    price: money(),
    discount: money(),
    finalPrice: money(),
    electronic: p.boolean().default(false),
    subscriberIdentifiers: p.array().columnType('text[]').default([]),
    ref: p.string().nullable(),
  }),
});
export type IOrderItem = InferEntity<typeof OrderItem>;
