/**
 * The stored rows the order document reads (domain/shop/order-document.ts), so domain needs no
 * entity type: db/entities/shop/order.ts satisfies them. The JSON it gives is typed by the
 * functions themselves and checked against the routes' reply schemas (the OpenAPI document).
 */
import type { InternalStatus, OrderAddress, OrderAttribute, OrderNote } from './order.ts';
import type { PricedLine } from './pricing.ts';

type Nullable<T> = T | null | undefined;

/** The stored order as far as the list item reads it; `orderStatus` must be loaded. */
export interface OrderListRecord {
  id: number;
  uuid: string;
  ordinalNumber: number;
  internalStatus: InternalStatus;
  orderStatus: { getEntity(): { id: number; name: string } };
  email: string;
  total: string;
  currency: string;
  paid: boolean;
  invoiceNumber?: Nullable<string>;
  transactionId?: Nullable<string>;
  paidAt?: Nullable<Date>;
  ref?: Nullable<string>;
  subscriberIdentifier?: Nullable<string>;
  deliveryMethod?: Nullable<string>;
  placedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** The stored order, as far as the document reads it; `orderStatus` must be loaded. */
export interface OrderRecord extends OrderListRecord {
  productsCost: string;
  deliveryCost: string;
  paymentCost: string;
  giftPackingCost: string;
  totalDiscount: string;
  deliveryVatRate?: Nullable<number>;
  paymentVatRate?: Nullable<number>;
  discountCode?: Nullable<string>;
  cashOnDelivery: boolean;
  comment: string;
  deliveryPointCode?: Nullable<string>;
  trackingNumber: string;
  trackingUrl: string;
  deliveryAddress?: Nullable<OrderAddress>;
  invoiceAddress?: Nullable<OrderAddress>;
  invoiceRecipientName: string;
  placedIp?: Nullable<string>;
  orderAttributes?: Nullable<OrderAttribute[]>;
  notes?: Nullable<OrderNote[]>;
}

/** One stored line of an order: the line as priced at the placement, with its id and what came after. */
export interface OrderItemRecord extends Pick<PricedLine, 'name' | 'sku' | 'quantity' | 'unitPrice' | 'vatRate' | 'price' | 'discount' | 'finalPrice'> {
  id: number;
  productId?: Nullable<number>;
  subscriberIdentifiers?: Nullable<string[]>;
  ref?: Nullable<string>;
}
