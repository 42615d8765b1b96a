/** The shapes of the order document (domain/shop/order-document.ts): the stored rows it reads, the JSON it gives. */
import type { ADDRESS_FIELDS, InternalStatus, OrderAddress, OrderAttribute, OrderNote } from './order.ts';

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

/** One stored line of an order. */
export interface OrderItemRecord {
  id: number;
  productId?: Nullable<number>;
  name: string;
  sku: string;
  quantity: number;
  unitPrice: string;
  vatRate: number;
  price: string;
  discount: string;
  finalPrice: string;
  subscriberIdentifiers?: Nullable<string[]>;
  ref?: Nullable<string>;
}

export type AddressDocument = Record<(typeof ADDRESS_FIELDS)[number], string>;

export interface OrderListItemDocument {
  id: number;
  uuid: string;
  ordinal_number: number;
  internal_status: InternalStatus;
  order_status: string;
  order_status_id: number;
  email: string;
  total: string;
  currency: string;
  paid: boolean;
  invoice_number: string | null;
  transaction_id: string | null;
  paid_at: string | null;
  ref: string | null;
  subscriber_identifier: string | null;
  delivery_method: string | null;
  placed_at: string;
  created_at: string;
  updated_at: string;
}

export interface OrderItemDocument {
  id: number;
  product_id: number | null;
  name: string;
  sku: string;
  quantity: number;
  unit_price: string;
  vat_rate: number;
  price: string;
  discount: string;
  final_price: string;
  subscriber_identifiers: string[];
  ref: string | null;
}

export interface OrderDetailDocument extends OrderListItemDocument {
  products_cost: string;
  delivery_cost: string;
  payment_cost: string;
  gift_packing_cost: string;
  total_discount: string;
  delivery_vat_rate: number | null;
  payment_vat_rate: number | null;
  discount_code: string;
  cash_on_delivery: boolean;
  comment: string;
  delivery_point_code: string | null;
  tracking_number: string;
  tracking_url: string;
  items: OrderItemDocument[];
  delivery_address: AddressDocument | null;
  invoice_address: AddressDocument | null;
  invoice_recipient_name: string;
  placed_ip: string | null;
  order_attributes: OrderAttribute[];
  notes: OrderNote[];
}
