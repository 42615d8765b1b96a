/** The shop's reference lists: categories, delivery and payment types, message senders. */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { shopOwned } from './shop-owned.ts';

export const ProductCategory = defineEntity({
  name: 'ProductCategory',
  tableName: 'shop_product_categories',
  indexes: [{ properties: ['shop'] }],
  ...shopOwned({
    name: p.string(),
    parentId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IProductCategory = InferEntity<typeof ProductCategory>;

/** What delivery and payment types share: a named way the buyer chooses, with its gross price and VAT rate. */
const checkoutMethod = () => ({
  name: p.string(),
  nameDisplayed: p.string(),
  defaultPrice: p.decimal('string').precision(12).scale(2),
  vatRate: p.integer().default(23),
  active: p.boolean().default(true),
  createdAt: p.datetime().onCreate(() => new Date()),
});

export const DeliveryType = defineEntity({
  name: 'DeliveryType',
  tableName: 'shop_delivery_types',
  indexes: [{ properties: ['shop'] }],
  ...shopOwned({ ...checkoutMethod(), domestic: p.boolean().default(true) }),
});
export type IDeliveryType = InferEntity<typeof DeliveryType>;

export const PaymentType = defineEntity({
  name: 'PaymentType',
  tableName: 'shop_payment_types',
  indexes: [{ properties: ['shop'] }],
  ...shopOwned({ ...checkoutMethod(), cashOnDelivery: p.boolean().default(false) }),
});
export type IPaymentType = InferEntity<typeof PaymentType>;

/** A message sender (name and address) used by status mails and mail sequences. */
export const Sender = defineEntity({
  name: 'Sender',
  tableName: 'shop_senders',
  indexes: [{ properties: ['shop'] }],
  ...shopOwned({
    name: p.string(),
    email: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type ISender = InferEntity<typeof Sender>;
