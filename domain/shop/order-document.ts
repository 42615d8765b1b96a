/**
 * The order document of the spec (Order: list item fields and "Detail adds"), built once from the
 * stored order: the shop API's list and `GET /orders/:id`, the operator API's placement reply and
 * the shop webhooks' `data.order` all use these. Pure: the rows come in (db/entities/shop/order.ts
 * satisfies the record types), plain JSON goes out.
 */
import { ADDRESS_FIELDS, type OrderAddress } from './order.ts';
import type { OrderItemRecord, OrderListRecord, OrderRecord } from './order-document-types.ts';

type AddressDocument = Record<(typeof ADDRESS_FIELDS)[number], string>;

const iso = (date: Date) => date.toISOString();

/** The list fields. The order's status must be loaded (populate `orderStatus`). */
export function orderListItem(order: OrderListRecord) {
  const status = order.orderStatus.getEntity();
  return {
    id: order.id,
    uuid: order.uuid,
    ordinal_number: order.ordinalNumber,
    internal_status: order.internalStatus,
    order_status: status.name,
    order_status_id: status.id,
    email: order.email,
    total: order.total,
    currency: order.currency,
    paid: order.paid,
    invoice_number: order.invoiceNumber ?? null,
    transaction_id: order.transactionId ?? null,
    paid_at: order.paidAt ? iso(order.paidAt) : null,
    ref: order.ref ?? null,
    subscriber_identifier: order.subscriberIdentifier ?? null,
    delivery_method: order.deliveryMethod ?? null,
    placed_at: iso(order.placedAt),
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
  };
}

function address(stored: OrderAddress | null | undefined): AddressDocument | null {
  if (!stored) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, stored[field] ?? ''])) as AddressDocument;
}

function item(line: OrderItemRecord) {
  return {
    id: line.id,
    product_id: line.productId ?? null,
    name: line.name,
    sku: line.sku,
    quantity: line.quantity,
    unit_price: line.unitPrice,
    vat_rate: line.vatRate,
    price: line.price,
    discount: line.discount,
    final_price: line.finalPrice,
    subscriber_identifiers: line.subscriberIdentifiers ?? [],
    ref: line.ref ?? null,
  };
}

/** Every field of the order detail. */
export function orderDetail(order: OrderRecord, items: OrderItemRecord[]) {
  return {
    ...orderListItem(order),
    products_cost: order.productsCost,
    delivery_cost: order.deliveryCost,
    payment_cost: order.paymentCost,
    gift_packing_cost: order.giftPackingCost,
    total_discount: order.totalDiscount,
    delivery_vat_rate: order.deliveryVatRate ?? null,
    payment_vat_rate: order.paymentVatRate ?? null,
    discount_code: order.discountCode ?? '',
    cash_on_delivery: order.cashOnDelivery,
    comment: order.comment,
    delivery_point_code: order.deliveryPointCode ?? null,
    tracking_number: order.trackingNumber,
    tracking_url: order.trackingUrl,
    items: items.map(item),
    delivery_address: address(order.deliveryAddress),
    invoice_address: address(order.invoiceAddress),
    invoice_recipient_name: order.invoiceRecipientName,
    placed_ip: order.placedIp ?? null,
    order_attributes: order.orderAttributes ?? [],
    notes: order.notes ?? [],
  };
}

/**
 * The buyer's view of an order (the storefront, reached by its secret uuid): status, totals and
 * lines of the detail, and how it is delivered and paid; nothing of the shop's bookkeeping or the
 * buyer's data.
 */
export function buyerOrder(order: OrderRecord & { paymentMethod?: string | null }, items: OrderItemRecord[]) {
  const { uuid, ordinal_number, order_status, paid, products_cost, delivery_cost, payment_cost, total_discount, total, currency, delivery_method, placed_at, ...detail } = orderDetail(order, items);
  return {
    uuid,
    ordinal_number,
    order_status,
    paid,
    products_cost,
    delivery_cost,
    payment_cost,
    total_discount,
    total,
    currency,
    items: detail.items.map(({ product_id, name, quantity, unit_price, price, discount, final_price }) => ({ product_id, name, quantity, unit_price, price, discount, final_price })),
    delivery_method,
    payment_method: order.paymentMethod ?? null,
    placed_at,
  };
}
