import type { OrderFacts } from '../../db/repositories/shop/order-facts.ts';
import { orderCostLines, type InvoiceSource } from '../../domain/shop/invoice.ts';
import { shopTimeZone } from '../../db/repositories/shop/invoices.ts';

/**
 * What an order's invoice is built from: its invoiced lines under their invoice names, its costs,
 * the shop's seller block and zone, the buyer's invoice address and recipient.
 */
export function invoiceSourceOf(
  { order, items, shop }: OrderFacts,
  lines: OrderFacts['items'],
  invoiceNames: ReadonlyMap<number, string>,
  number: string,
  issuedAt: Date,
): InvoiceSource {
  return {
    number,
    currency: order.currency,
    issuedAt,
    saleAt: order.paidAt ?? issuedAt,
    paidAt: order.paidAt ?? null,
    timeZone: shopTimeZone(shop),
    orderNumber: order.ordinalNumber,
    shopName: shop.name,
    seller: shop.invoiceSeller ?? null,
    invoiceAddress: order.invoiceAddress ?? null,
    deliveryAddress: order.deliveryAddress ?? null,
    email: order.email,
    recipientName: order.invoiceRecipientName || null,
    lines: lines.map((l) => ({ name: (l.productId != null && invoiceNames.get(l.productId)) || l.name, quantity: l.quantity, vatRate: l.vatRate, finalPrice: l.finalPrice })),
    costs: orderCostLines(
      {
        deliveryMethod: order.deliveryMethod ?? null,
        deliveryCost: order.deliveryCost,
        deliveryVatRate: order.deliveryVatRate ?? null,
        paymentMethod: order.paymentMethod ?? null,
        paymentCost: order.paymentCost,
        paymentVatRate: order.paymentVatRate ?? null,
        totalDiscount: order.totalDiscount,
      },
      items.map((i) => i.discount),
    ),
    paymentMethod: order.paymentMethod ?? null,
  };
}
