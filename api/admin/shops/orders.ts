import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IProduct } from '../../../db/entities/shop/index.ts';
import { activeDeliveryType, activePaymentType, findOrderDetail, insertOrder, newOrderStatus, ProductsUnavailable, productsForCart } from '../../../db/repositories/shop/orders.ts';
import { ADDRESS_FIELDS, type OrderAddress } from '../../../domain/shop/order.ts';
import { priceCart, type CartContext, type PricedCart, type ProductSnapshot } from '../../../domain/shop/pricing.ts';
import { codeForCheckout, DiscountCodeRefused } from '../../../db/repositories/shop/discount-codes.ts';
import { codeAdjustments, codeRefusal, type CodeSnapshot, type DiscountCart } from '../../../domain/shop/discount-code-pricing.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
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

/** The shop's code matching `typed` (ignoring case) as checkout sees it; null when there is none. */
async function codeSnapshot(em: EntityManager, shopId: string, typed: string): Promise<CodeSnapshot | null> {
  const found = await codeForCheckout(em, shopId, typed);
  if (!found) return null;
  const { code, pool } = found;
  return {
    id: code.id,
    code: code.code,
    caseSensitive: code.caseSensitive,
    discountType: code.discountType,
    value: code.value ?? null,
    minimumAmount: code.minimumAmount ?? null,
    usages: code.usages,
    usagesLimit: code.usagesLimit ?? null,
    usagesPerCustomerLimit: code.usagesPerCustomerLimit ?? null,
    active: code.active,
    startDate: code.startDate ?? null,
    endDate: code.endDate ?? null,
    relationWithProducts: code.relationWithProducts,
    productIds: code.productIds,
    productCategoryIds: code.productCategoryIds,
    relationWithDeliveryTypes: code.relationWithDeliveryTypes,
    deliveryTypeIds: code.deliveryTypeIds,
    pool: pool && { activateOnDraw: pool.activateOnDraw },
    drawnAt: code.drawnAt ?? null,
  };
}

/** The priced cart as a discount code sees it. */
function discountCart(cart: PricedCart, products: Map<number, IProduct>, delivery: { id: number; domestic: boolean } | null): DiscountCart {
  return {
    lines: cart.lines.map((line) => ({
      productId: line.productId,
      categoryIds: products.get(line.productId)?.productCategoryIds ?? [],
      unitPrice: line.unitPrice,
      quantity: line.quantity,
      price: line.price,
    })),
    productsCost: cart.productsCost,
    delivery: delivery && { id: delivery.id, domestic: delivery.domestic, cost: cart.deliveryCost },
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
          '`discount_code` (unknown, not issued, inactive, outside its dates, used up in total or by this customer, or below its minimum: 422) is applied by its rules and its use counted with the order. ' +
          '`product_set_id` is refused until product sets exist.',
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

      const products = new Map((await productsForCart(request.em, [...new Set(body.items.map((i) => i.product_id))])).map((p) => [p.id, p]));
      body.items.forEach((line, index) => {
        if (!products.has(line.product_id)) errors[`items.${index}.product_id`] = ['is not a product of this shop'];
      });
      const delivery = body.delivery_type_id != null ? await activeDeliveryType(request.em, body.delivery_type_id) : null;
      if (body.delivery_type_id != null && !delivery) errors.delivery_type_id = ['is not an active delivery type of this shop'];
      const payment = body.payment_type_id != null ? await activePaymentType(request.em, body.payment_type_id) : null;
      if (body.payment_type_id != null && !payment) errors.payment_type_id = ['is not an active payment type of this shop'];
      if (Object.keys(errors).length > 0) throw unprocessable(errors);

      const context: CartContext = {
        lines: body.items.map((line) => ({ product: snapshot(products.get(line.product_id)!), quantity: line.quantity, price: line.price })),
        delivery: delivery && { id: delivery.id, defaultPrice: delivery.defaultPrice, vatRate: delivery.vatRate },
        payment: payment && { id: payment.id, defaultPrice: payment.defaultPrice, vatRate: payment.vatRate },
      };
      let priced = priceCart(context);
      if (!priced.ok) {
        for (const error of priced.errors) (errors[error.field] ??= []).push(error.message);
        throw unprocessable(errors);
      }
      // The discount code: checked against the cart at catalogue (or buyer) prices, then its
      // adjustments priced in; its use is counted when the order is stored.
      const typed = body.discount_code?.trim() ?? '';
      let code: CodeSnapshot | null = null;
      if (typed) {
        code = await codeSnapshot(request.em, shop.id, typed);
        const cart = discountCart(priced.cart, products, delivery && { id: delivery.id, domestic: delivery.domestic });
        const refusal = codeRefusal(code, typed, cart, new Date());
        if (refusal) throw unprocessable({ discount_code: [refusal] });
        priced = priceCart(context, codeAdjustments(code!, cart));
        if (!priced.ok) throw unprocessable(Object.fromEntries(priced.errors.map((error) => [error.field, [error.message]])));
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
        discount: code && { id: code.id, code: code.code, perCustomerLimit: code.usagesPerCustomerLimit },
      }).catch((error: unknown) => {
        // A limit reached by a concurrent order: the transaction rolled back, nothing is stored.
        if (error instanceof DiscountCodeRefused) throw unprocessable({ discount_code: [error.message] });
        if (error instanceof ProductsUnavailable) {
          const errors = fieldErrorMap();
          body.items.forEach((item, index) => {
            if (error.productIds.includes(item.product_id)) errors[`items.${index}.product_id`] = ['is no longer available (removed, hidden or inactive)'];
          });
          throw unprocessable(errors);
        }
        throw error;
      });
      const placed = await findOrderDetail(request.em, orderId);
      return reply.code(201).send({ data: orderDetail(placed!.order, placed!.items) });
    },
  );
};
