import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createCart, updateCartState, useCart } from '../../../db/repositories/shop/carts.ts';
import { activeDeliveryType, activePaymentType } from '../../../db/repositories/shop/orders.ts';
import { useCartWithReads } from '../../../db/repositories/shop/checkout-reads.ts';
import { orderByUuid } from '../../../db/repositories/shop/storefront.ts';
import { EMPTY_CART, type CartState } from '../../../domain/shop/cart.ts';
import { HttpError, notFound } from '../../shared/errors.ts';
import { apartFromKeyedTransaction } from '../../shared/idempotency/index.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { storefrontShop, SubdomainParams } from '../shop.ts';
import { cartReply, priceCart } from './cart-view.ts';
import { checkoutPayment } from '../../shop/payments/checkout-payment.ts';
import { checkOut } from './checkout.ts';
import { cartItems, patched, readsPatch } from './cart-patch.ts';
import { CartParams, CartReply, CheckoutReply, CreateCartBody, PatchCartBody } from './schemas.ts';

/** Bodies of the cart routes are small: a cart holds at most 100 items. */
const CART_BODY_LIMIT = 64 * 1024;

const checkedOut = () => new HttpError(409, 'the cart has been checked out');

/** Carts: made, read and changed by whoever holds their random id; checked out into an order. */
export const storefrontCartRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 404: ErrorBody, 422: ValidationErrorBody };

  app.post(
    '/carts',
    {
      bodyLimit: CART_BODY_LIMIT,
      schema: {
        operationId: 'storefront.carts.create',
        summary: 'Opens a cart',
        description:
          'A cart with the items sent and/or a product set by its slug (the set\'s link: a `link_only_discount` set is only taken here). ' +
          '`copy_of` (an order of this shop; unknown: 404) carries that order\'s email, addresses, parcel locker (`delivery_point_code`), `invoice_recipient_name` and its delivery and payment types that are still active. Priced like the placement: 422 naming the field.',
        params: SubdomainParams,
        body: CreateCartBody,
        response: { 201: data(CartReply), ...errors },
      },
    },
    async (request, reply) => {
      const shop = await storefrontShop(request);
      const { items, product_set, email, copy_of } = request.body;
      const state: CartState = { ...EMPTY_CART, items: cartItems(items ?? []) };
      if (copy_of) {
        const copied = await orderByUuid(request.em, copy_of);
        if (!copied) throw notFound('order');
        const { order } = copied;
        state.email = order.email;
        state.delivery_address = order.deliveryAddress ?? null;
        state.invoice_address = order.invoiceAddress ?? null;
        state.delivery_point_code = order.deliveryPointCode || null;
        state.invoice_recipient_name = order.invoiceRecipientName ?? '';
        if (order.deliveryTypeId != null && (await activeDeliveryType(request.em, order.deliveryTypeId))) state.delivery_type_id = order.deliveryTypeId;
        if (order.paymentTypeId != null && (await activePaymentType(request.em, order.paymentTypeId))) state.payment_type_id = order.paymentTypeId;
      }
      if (email !== undefined) state.email = email;
      if (product_set !== undefined) Object.assign(state, { product_set, via_set_link: true });
      const pricing = await priceCart(request.em, shop, state);
      const cart = await createCart(request.em, shop.id, state);
      return reply.code(201).send({ data: await cartReply(request.em, shop, cart, pricing) });
    },
  );

  app.get(
    '/carts/:cart_id',
    {
      schema: {
        operationId: 'storefront.carts.get',
        summary: 'Reads a cart, priced now',
        description: 'A cart that cannot be priced now (a product switched off since, ...) has `pricing: null` and says why in `problems`.',
        params: CartParams,
        response: { 200: data(CartReply), ...errors },
      },
    },
    async (request) => {
      const shop = await storefrontShop(request);
      const cart = await useCart(request.em, shop.id, request.params.cart_id);
      if (!cart) throw notFound('cart');
      return { data: await cartReply(request.em, shop, cart) };
    },
  );

  app.patch(
    '/carts/:cart_id',
    {
      bodyLimit: CART_BODY_LIMIT,
      schema: {
        operationId: 'storefront.carts.update',
        summary: 'Changes a cart and prices it again',
        description:
          'Sent fields replace (`items` replaces the items), `null` removes. Every refusal is a 422 naming the field and changes nothing: an unknown product, set, delivery or payment type, ' +
          'a price below `minimal_price`, more than `cart_quantity_limit`, a refused discount code, a delivery or payment type an item does not allow. 409 once checked out.',
        params: CartParams,
        body: PatchCartBody,
        response: { 200: data(CartReply), 409: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const shop = await storefrontShop(request);
      const found = await useCartWithReads(request.em, shop.id, request.params.cart_id, readsPatch(request.body), { recommendations: true });
      if (!found) throw notFound('cart');
      const { cart } = found;
      if (cart.orderId != null) throw checkedOut();
      const state = patched(cart.state, request.body);
      const pricing = await priceCart(request.em, shop, state, found.prefetched);
      const updated = await updateCartState(request.em, shop.id, cart.id, state);
      if (!updated.ok) throw updated.reason === 'checked_out' ? checkedOut() : notFound('cart');
      return { data: await cartReply(request.em, shop, { id: cart.id, state }, pricing) };
    },
  );

  app.post(
    '/carts/:cart_id/checkout',
    {
      schema: {
        operationId: 'storefront.carts.checkout',
        summary: 'Places the order of a cart',
        description:
          'Places the order exactly as the operator\'s placement does (usage limits counted with the order, the next ordinal number), `placed_ip` the client\'s address, the cart\'s id the order\'s `uuid`. ' +
          'A repeat answers the same order with 200. `payment` is what the client needs to pay (the PaymentIntent\'s client secret for Stripe.js) when the shop\'s gateway is Stripe and the total is above zero; a repeat answers the same PaymentIntent. ' +
          'Null otherwise: the order waits for PATCH .../clear, or needs no payment.',
        params: CartParams,
        response: { 200: data(CheckoutReply), 201: data(CheckoutReply), ...errors },
      },
    },
    async (request, reply) => {
      const shop = await storefrontShop(request);
      const found = await useCartWithReads(request.em, shop.id, request.params.cart_id, {}, { statuses: true });
      if (!found) throw notFound('cart');
      // Placed apart from a keyed request's transaction, which would hold the shop's order-number lock
      // through the Stripe calls below; the checkout is idempotent by its cart (a retry finds the order).
      const { order, placed, stripeGateway } = await apartFromKeyedTransaction(request, (em) => checkOut({ workflows: app.workflows }, em, shop, found.cart, request.ip, found.prefetched));
      const payment = await checkoutPayment(request.em, { secretsKey: app.secretsKey, stripeApiUrl: app.integrationEndpoints.stripeApiUrl }, shop.id, order.id, stripeGateway);
      return reply.code(placed ? 201 : 200).send({
        data: { order_id: order.id, uuid: order.uuid, ordinal_number: order.ordinalNumber, total: order.total, currency: order.currency, payment },
      });
    },
  );
};
