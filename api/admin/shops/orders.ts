import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IProduct } from '../../../db/entities/shop/index.ts';
import { automaticRulesAfter } from '../../../db/repositories/shop/automatic-statuses.ts';
import { activeDeliveryType, activePaymentType, findOrderDetail, insertOrder, newOrderStatus, ProductPricesChanged, ProductsUnavailable, productsForCart } from '../../../db/repositories/shop/orders.ts';
import { DiscountCodeRefused } from '../../../db/repositories/shop/discount-codes.ts';
import { automaticDiscountsForCheckout, AutomaticDiscountUsedUp, isNewsletterSubscriber, productSetForCheckout } from '../../../db/repositories/shop/checkout.ts';
import { ADDRESS_FIELDS, type OrderAddress } from '../../../domain/shop/order.ts';
import { priceCheckout, type CartLine, type PricingError } from '../../../domain/shop/pricing.ts';
import { productSetLines } from '../../../domain/shop/product-set-pricing.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, fieldErrorMap, unprocessable, validationErrorHandler, type FieldErrors } from '../../shared/validation-errors.ts';
import { OrderDetailReply } from '../../shop/orders/schemas.ts';
import { orderDetail } from '../../shop/orders/serialize.ts';
import { automaticDiscountSnapshot, codeSnapshot, productSetSnapshot, productSnapshot } from './checkout-inputs.ts';
import { PlaceOrderBody, type PlaceOrderInput } from './order-schemas.ts';
import { ShopParams } from './schemas.ts';
import { shopOf } from './routes.ts';
import { signUpWithSequences, unlessSequencesUnstarted } from './newsletter-sign-up.ts';

function addErrors(errors: FieldErrors, problems: readonly PricingError[]): FieldErrors {
  for (const problem of problems) (errors[problem.field] ??= []).push(problem.message);
  return errors;
}

/**
 * The cart lines of the placement: the items as sent, or a product set's lines (in pool mode the
 * buyer's picks), each set line carrying its share of the set price. Collects 422s in `errors`.
 */
async function cartLines(em: EntityManager, body: PlaceOrderInput, errors: FieldErrors): Promise<CartLine[]> {
  if (body.product_set_id == null) {
    const products = new Map((await productsForCart(em, [...new Set(body.items.map((i) => i.product_id))])).map((p) => [p.id, p]));
    body.items.forEach((line, index) => {
      if (!products.has(line.product_id)) errors[`items.${index}.product_id`] = ['is not a product of this shop'];
    });
    return body.items.flatMap((line) => {
      const product = products.get(line.product_id);
      return product ? [{ product: productSnapshot(product), quantity: line.quantity, price: line.price }] : [];
    });
  }
  const set = await productSetForCheckout(em, body.product_set_id);
  if (!set) {
    errors.product_set_id = ['is not a product set of this shop'];
    return [];
  }
  const products = new Map<number, IProduct>((await productsForCart(em, set.items.getItems().map((item) => item.product.id))).map((p) => [p.id, p]));
  const lines = productSetLines({
    set: productSetSnapshot(set),
    picks: body.items.map((item) => ({ productId: item.product_id, quantity: item.quantity, price: item.price })),
    viaLink: body.via_set_link,
    paymentTypeId: body.payment_type_id ?? null,
    catalogue: new Map([...products.values()].map((p) => [p.id, p.price])),
  });
  if (!lines.ok) {
    addErrors(errors, lines.errors);
    return [];
  }
  return lines.lines.map((line) => ({ product: productSnapshot(products.get(line.productId)!), quantity: line.quantity, setPrice: line.setPrice, field: line.field }));
}

/** An address with all ten fields, '' for those not sent; null when none was sent. */
function storedAddress(input: PlaceOrderInput['delivery_address']): OrderAddress | null {
  if (!input) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, input[field] ?? ''])) as OrderAddress;
}

/** A product removed, hidden or switched off while the order was priced, named as the request named it. */
function unavailable(lines: readonly CartLine[], productIds: readonly number[]): FieldErrors {
  const errors = fieldErrorMap();
  const message = 'is no longer available (removed, hidden or inactive)';
  lines.forEach((line, index) => {
    if (!productIds.includes(line.product.id)) return;
    const field = line.field ?? `items.${index}.product_id`;
    if (field === 'product_set_id') (errors[field] ??= []).push(`product ${line.product.id} ${message}`);
    else errors[field] = [message];
  });
  return errors;
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
        operationId: 'admin.shops.orders.place',
        summary: 'Places an order priced by the shop\'s rules',
        description:
          'Places an order at catalogue prices (or the buyer\'s price for allow_price_change products), starting placed, unpaid, at the New status. ' +
          '`discount_code` (unknown, not issued, inactive, outside its dates, used up in total or by this customer, or below its minimum: 422) is applied by its rules and its use counted with the order. ' +
          'Automatic discounts (email address, email domain, newsletter consent, time-limited) apply by their rules, the best one per line; `combine_with_other_discount` of the code decides whether it stacks on them. ' +
          '`product_set_id` orders a product set at its price (pool mode: the picks in `items`).',
        params: ShopParams,
        body: PlaceOrderBody,
        response: { 201: data(OrderDetailReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request, reply) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const body = request.body;
      const email = body.email.toLowerCase();
      const errors = fieldErrorMap();
      let lines = await cartLines(request.em, body, errors);
      const delivery = body.delivery_type_id != null ? await activeDeliveryType(request.em, body.delivery_type_id) : null;
      if (body.delivery_type_id != null && !delivery) errors.delivery_type_id = ['is not an active delivery type of this shop'];
      const payment = body.payment_type_id != null ? await activePaymentType(request.em, body.payment_type_id) : null;
      if (body.payment_type_id != null && !payment) errors.payment_type_id = ['is not an active payment type of this shop'];
      if (Object.keys(errors).length > 0) throw unprocessable(errors);

      const typed = body.discount_code?.trim() ?? '';
      const checkout = {
        context: {
          lines,
          delivery: delivery && { id: delivery.id, defaultPrice: delivery.defaultPrice, vatRate: delivery.vatRate, domestic: delivery.domestic },
          payment: payment && { id: payment.id, defaultPrice: payment.defaultPrice, vatRate: payment.vatRate },
        },
        code: typed ? { typed, snapshot: await codeSnapshot(request.em, shop.id, typed) } : null,
        automaticDiscounts: (await automaticDiscountsForCheckout(request.em, email)).map(automaticDiscountSnapshot),
        buyer: { email, newsletter: body.newsletter || (await isNewsletterSubscriber(request.em, email)) },
        now: new Date(),
      };
      const status = await newOrderStatus(request.em);
      // An automatic discount used up by a concurrent order is left out and the cart priced again
      // (the buyer did not ask for it); each round leaves out one more, so this ends. A catalogue
      // price changed since the read (a time-limited discount began or ended) reads the lines again.
      const usedUp = new Set<number>();
      let orderId: number | null = null;
      while (orderId === null) {
        const priced = priceCheckout({ ...checkout, automaticDiscounts: checkout.automaticDiscounts.filter((d) => !usedUp.has(d.id)) });
        if (!priced.ok) throw unprocessable(addErrors(errors, priced.errors));
        const { code } = priced;
        orderId = await insertOrder(request.em, {
          shopId: shop.id,
          currency: shop.currency,
          statusId: status.id,
          email,
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
          automaticDiscountIds: priced.automaticDiscountIds,
          pricedAt: new Map(lines.map((line) => [line.product.id, line.product.price])),
        }).catch(async (error: unknown) => {
          if (error instanceof AutomaticDiscountUsedUp) {
            usedUp.add(error.discountId);
            return null;
          }
          if (error instanceof ProductPricesChanged) {
            request.em.clear();
            lines = await cartLines(request.em, body, errors);
            if (Object.keys(errors).length > 0) throw unprocessable(errors);
            checkout.context.lines = lines;
            return null;
          }
          // A limit reached by a concurrent order: the transaction rolled back, nothing is stored.
          if (error instanceof DiscountCodeRefused) throw unprocessable({ discount_code: [error.message] });
          if (error instanceof ProductsUnavailable) throw unprocessable(unavailable(lines, error.productIds));
          throw error;
        });
      }
      // Consent given with the order signs the buyer up as the newsletter endpoint does. The order
      // is stored: a 503 would invite a repeat that places it twice, so sequences that could not be
      // started are only logged (signing up again through the endpoint starts them).
      if (body.newsletter) await signUpWithSequences(app.workflows, request.em, request.log, shop.id, email).catch(unlessSequencesUnstarted);
      // The statuses set automatically after New, when the shop has any; likewise only logged when Temporal is away.
      if ((await automaticRulesAfter(request.em, status.id)).length > 0) {
        await app.workflows.orderPlaced({ shopId: shop.id, orderId }).catch((error: unknown) => request.log.error({ err: error, shopId: shop.id, orderId }, 'automatic statuses after New could not be planned'));
      }
      const placed = await findOrderDetail(request.em, orderId);
      return reply.code(201).send({ data: orderDetail(placed!.order, placed!.items) });
    },
  );
};
