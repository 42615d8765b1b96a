import type { FastifyRequest } from 'fastify';
import type { IProduct } from '../../../db/entities/shop/index.ts';
import { publicBaseOf } from '../../shared/public-base.ts';
import type { ProductPatch, ProductReply } from './schemas.ts';

/** Write fields (as sent) and the product properties they set; `photo` is handled apart. */
export const PRODUCT_FIELD_PROPERTIES = {
  name: 'name',
  price: 'price',
  sku: 'sku',
  vat_rate: 'vatRate',
  active: 'active',
  description: 'description',
  description_for_cart: 'descriptionForCart',
  electronic_product: 'electronic',
  distribution: 'distribution',
  producer: 'producer',
  ean: 'ean',
  invoice_item_name: 'invoiceItemName',
  pkwiu: 'pkwiu',
  product_link: 'productLink',
  gtu_code: 'gtuCode',
  regular_price_displayed: 'regularPriceDisplayed',
  allow_price_change: 'allowPriceChange',
  minimal_price: 'minimalPrice',
  allow_zero_minimal_price: 'allowZeroMinimalPrice',
  delivery_type_ids: 'deliveryTypeIds',
  payment_type_ids: 'paymentTypeIds',
  product_category_id: 'feedCategoryId',
  product_category_ids: 'productCategoryIds',
  cart_quantity_limit: 'cartQuantityLimit',
  lump_code: 'lumpCode',
  hide_in_xmls: 'hideInXmls',
  no_invoice: 'noInvoice',
  hide_invoice_address_fields: 'hideInvoiceAddressFields',
  payment_return_url: 'paymentReturnUrl',
  course_access: 'courseAccess',
} as const satisfies Record<Exclude<keyof ProductPatch, 'photo'>, keyof IProduct>;

/** The product properties a write sets: only the fields sent. */
export function productValues(body: ProductPatch): Partial<IProduct> {
  const values: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(PRODUCT_FIELD_PROPERTIES)) {
    const value = body[field as keyof typeof PRODUCT_FIELD_PROPERTIES];
    if (value !== undefined) values[property] = value;
  }
  return values as Partial<IProduct>;
}

/** Public address of a product photo (GET /shop_files/:file_id, no key), under `PUBLIC_URL`. */
export const photoUrlFor = (request: FastifyRequest) => (fileId: string) => `${publicBaseOf(request)}/shop_files/${fileId}`;

/**
 * The spec's Product (reply). `category` and `category_id` name the first main category
 * (`product_category_ids[0]`); "" and null without one.
 */
export function productReply(product: IProduct, categoryNames: ReadonlyMap<number, string>, photoUrl: (fileId: string) => string): ProductReply {
  const firstCategory = product.productCategoryIds[0];
  return {
    id: product.id,
    name: product.name,
    sku: product.sku,
    price: product.price,
    vat_rate: product.vatRate,
    active: product.active,
    electronic: product.electronic,
    distribution: product.distribution,
    description: product.description,
    description_for_cart: product.descriptionForCart,
    category: (firstCategory !== undefined && categoryNames.get(firstCategory)) || '',
    category_id: firstCategory ?? null,
    ean: product.ean ?? null,
    producer: product.producer,
    invoice_item_name: product.invoiceItemName,
    pkwiu: product.pkwiu ?? null,
    product_link: product.productLink,
    gtu_code: product.gtuCode ?? null,
    regular_price_displayed: product.regularPriceDisplayed,
    allow_price_change: product.allowPriceChange,
    minimal_price: product.minimalPrice ?? null,
    allow_zero_minimal_price: product.allowZeroMinimalPrice,
    delivery_type_ids: product.deliveryTypeIds,
    payment_type_ids: product.paymentTypeIds,
    cart_quantity_limit: product.cartQuantityLimit ?? null,
    lump_code: product.lumpCode,
    product_category_ids: product.productCategoryIds,
    feed_category_id: product.feedCategoryId ?? null,
    photo_url: product.photo ? photoUrl(product.photo.id) : '',
    hide_in_xmls: product.hideInXmls,
    no_invoice: product.noInvoice,
    hide_invoice_address_fields: product.hideInvoiceAddressFields,
    payment_return_url: product.paymentReturnUrl ?? null,
    course_access: product.courseAccess,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}
