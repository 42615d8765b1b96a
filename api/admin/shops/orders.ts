import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IProduct } from '../../../db/entities/shop/index.ts';
import { activeDeliveryType, activePaymentType, findOrderDetail, insertOrder, newOrderStatus, productsForCart } from '../../../db/repositories/shop/orders.ts';
import { ADDRESS_FIELDS, type OrderAddress } from '../../../domain/shop/order.ts';
import { priceCart, type ProductSnapshot } from '../../../domain/shop/pricing.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, fieldErrorMap, unprocessable, validationErrorHandler } from '../../shared/validation-errors.ts';
import { OrderDetailReply } from '../../shop/orders/schemas.ts';
import { orderDetail } from '../../shop/orders/serialize.ts';
import { PlaceOrderBody, type PlaceOrderInput } from './order-schemas.ts';
import { ShopParams } from './schemas.ts';
import { shopOf } from './routes.ts';

function snapshot(product: IProduct): ProductSnapshot {
  return {
    id: product.id,
    name: product.name,
    sku: product.sku,
    price: product.price,
    vatRate: product.vatRate,
    active: product.active,
    allowPriceChange: product.allowPriceChange,
    minimalPrice: product.minimalPrice ?? null,
    allowZeroMinimalPrice: product.allowZeroMinimalPrice,
    electronic: product.electronic,
    deliveryTypeIds: product.deliveryTypeIds,
    paymentTypeIds: product.paymentTypeIds,
    cartQuantityLimit: product.cartQuantityLimit ?? null,
  };
}

/** An address with all ten fields, '' for those not sent; null when none was sent. */
function storedAddress(input: PlaceOrderInput['delivery_address']): OrderAddress | null {
  if (!input) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, input[field] ?? ''])) as OrderAddress;
}

/**
 * Operator order placement `POST /admin/v1/shops/:shop_id/orders` (DESIGN.md section 8): the
 * storefront's checkout. Every amount comes from the pricing module; every refusal is a 422 naming
 * the field, and nothing is stored before all checks passed.
 */
export const shopOrderAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.post(
    '/shops/:shop_id/orders',
    {
      schema: {
        tags: ['operator: shops'],
        description:
          'Places an order at catalogue prices (or the buyer\'s price for allow_price_change products), starting placed, unpaid, at the New status. ' +
          '`product_set_id` is refused and `discount_code` accepted only empty until product sets and discounts exist.',
        params: ShopParams,
        body: PlaceOrderBody,
        response: { 201: data(OrderDetailReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const body = request.body;
      const errors = fieldErrorMap();
      if (body.product_set_id != null) errors.product_set_id = ['product sets cannot be ordered yet'];
      if (body.discount_code) errors.discount_code = ['is not a discount code of this shop'];

      const products = new Map((await productsForCart(request.em, [...new Set(body.items.map((i) => i.product_id))])).map((p) => [p.id, p]));
      body.items.forEach((line, index) => {
        if (!products.has(line.product_id)) errors[`items.${index}.product_id`] = ['is not a product of this shop'];
      });
      const delivery = body.delivery_type_id != null ? await activeDeliveryType(request.em, body.delivery_type_id) : null;
      if (body.delivery_type_id != null && !delivery) errors.delivery_type_id = ['is not an active delivery type of this shop'];
      const payment = body.payment_type_id != null ? await activePaymentType(request.em, body.payment_type_id) : null;
      if (body.payment_type_id != null && !payment) errors.payment_type_id = ['is not an active payment type of this shop'];
      if (Object.keys(errors).length > 0) throw unprocessable(errors);

      const priced = priceCart({
        lines: body.items.map((line) => ({ product: snapshot(products.get(line.product_id)!), quantity: line.quantity, price: line.price })),
        delivery: delivery && { id: delivery.id, defaultPrice: delivery.defaultPrice, vatRate: delivery.vatRate },
        payment: payment && { id: payment.id, defaultPrice: payment.defaultPrice, vatRate: payment.vatRate },
      });
      if (!priced.ok) {
        for (const error of priced.errors) (errors[error.field] ??= []).push(error.message);
        throw unprocessable(errors);
      }

      const status = await newOrderStatus(request.em);
      const orderId = await insertOrder(request.em, {
        shopId: shop.id,
        currency: shop.currency,
        statusId: status.id,
        email: body.email.toLowerCase(),
        cart: priced.cart,
        delivery: delivery && { id: delivery.id, name: delivery.name, vatRate: delivery.vatRate },
        payment: payment && { id: payment.id, name: payment.name, vatRate: payment.vatRate, cashOnDelivery: payment.cashOnDelivery },
        newsletter: body.newsletter,
        deliveryAddress: storedAddress(body.delivery_address),
        invoiceAddress: storedAddress(body.invoice_address),
        comment: body.comment,
        ref: body.ref || null,
        placedIp: body.placed_ip ?? null,
        placedAt: body.placed_at ? new Date(body.placed_at) : new Date(),
      });
      const placed = await findOrderDetail(request.em, orderId);
      return reply.code(201).send({ data: orderDetail(placed!.order, placed!.items) });
    },
  );
};
