import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { InvoiceSeller } from '../../../domain/shop/invoice-seller.ts';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import { Platform } from '../access/platform.ts';

/**
 * The shop tenant (DESIGN.md section 7). `apiEnabled` is the owner's switch: false answers every
 * shop request 401. `nextOrdinalNumber` and `nextInvoiceNumber` are per-shop counters taken with
 * `UPDATE ... RETURNING`, so concurrent orders never share a number. `coursePlatform` is the course
 * platform whose courses the shop's products sell (`course_access`); null when not linked.
 */
export const Shop = defineEntity({
  name: 'Shop',
  tableName: 'shops',
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    subdomain: p.string().length(63).unique(),
    name: p.string(),
    currency: p.string().length(3).default('PLN'),
    adminEmail: p.string().nullable(),
    apiEnabled: p.boolean().default(true),
    automaticInvoicing: p.boolean().default(false),
    timeZone: p.string().length(64).default('Europe/Warsaw'),
    nextOrdinalNumber: p.integer().default(1),
    nextInvoiceNumber: p.integer().default(1),
    /** The seller block of its invoices; null: the shop's name alone. */
    invoiceSeller: p.json<InvoiceSeller>().nullable(),
    coursePlatform: () => p.manyToOne(Platform).ref().nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IShop = InferEntity<typeof Shop>;

/** A shop API key: only its SHA-256 and a short visible prefix are stored; the token is shown once. */
export const ShopApiKey = defineEntity({
  name: 'ShopApiKey',
  tableName: 'shop_api_keys',
  indexes: [{ properties: ['shop'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    shop: () => p.manyToOne(Shop).ref(),
    name: p.string(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    scopes: p.array().$type<ShopScope[]>().columnType('text[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});
export type IShopApiKey = InferEntity<typeof ShopApiKey>;
