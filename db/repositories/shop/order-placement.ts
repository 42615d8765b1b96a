/**
 * The placing write of an order (DESIGN.md sections 8 and 9): the checks that must hold when the
 * order is stored, the uses of its discounts counted, the shop's next ordinal number, the order
 * and its lines, in ONE statement (issue 26: a placement at 32 concurrent queued on the shop's
 * counter and the code's row while each of eight round trips of its transaction waited for a busy
 * event loop; now the locks live only as long as the statement runs in the database).
 *
 * The statement's CTEs take their locks in a fixed order, each step depending on the one before
 * (so the planner cannot reorder them): the products FOR SHARE in id order, the discount code,
 * the automatic discounts in id order, then the shop's counter. Every write is conditional on all
 * checks passing, so a refused placement changes nothing; the locked rows are read in their
 * latest version (a row lock in READ COMMITTED waits for and then reads the concurrent writer's
 * row), so no limit is ever passed. Only a code with a per-customer limit needs a second
 * statement: the customer's orders counted after the code's lock, in a transaction. A prepared
 * statement (shared/prepared.ts): its text is long. The api's placement also records there the
 * start of the order's `orderPlaced` workflow (`placedStart`, the outbox of issue 41 item 2), so
 * the order and its follow-up commit together in the same round trip.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { OrderAddress, OrderAttribute } from '../../../domain/shop/order.ts';
import type { PricedCart } from '../../../domain/shop/pricing.ts';
import { money } from '../../../domain/shared/money.ts';
import { DiscountCodeRefused } from './discount-codes.ts';
import { AutomaticDiscountUsedUp } from './checkout.ts';
import { runStatement, statement, type Statement } from '../shared/prepared.ts';
import { PLACING_HAS_EFFECTS_SQL } from './placing-effects.ts';
import { orderPlacedWorkflowIdAround } from '../../../domain/shop/workflow-ids.ts';
import { intArray } from '../shared/array-literal.ts';

export interface NewOrder {
  shopId: string;
  /** The order's secret `uuid` (a storefront cart's id); a random one when unset. */
  uuid?: string;
  currency: string;
  statusId: number;
  email: string;
  cart: PricedCart;
  delivery: { id: number; name: string; vatRate: number } | null;
  payment: { id: number; name: string; vatRate: number; cashOnDelivery: boolean } | null;
  newsletter: boolean;
  deliveryAddress: OrderAddress | null;
  invoiceAddress: OrderAddress | null;
  comment: string;
  ref: string | null;
  placedIp: string | null;
  placedAt: Date;
  /** Checkout data (DESIGN.md section 10): the parcel locker, the invoice's recipient, the buyer's attributes; none when unset. */
  deliveryPointCode?: string | null;
  invoiceRecipientName?: string;
  orderAttributes?: readonly OrderAttribute[];
  /** The buyer's GA4 client id (domain/shop/analytics-client-id.ts); null when none was given. */
  analyticsClientId?: string | null;
  /** The discount code applied: its use is counted with the order (limits in total and per customer). */
  discount?: { id: number; code: string; perCustomerLimit: number | null } | null;
  /** The automatic discounts the order got: one use of each is counted with the order. */
  automaticDiscountIds?: readonly number[];
  /** The catalogue price each product was priced at: a product whose price changed since refuses the insert (ProductPricesChanged). */
  pricedAt?: ReadonlyMap<number, string>;
  /**
   * The order records a payment already taken (a subscription renewal): a product switched off or
   * hidden since the charge is still recorded, since refusing would leave a charge without its order.
   */
  alreadyPaid?: boolean;
  /** The storefront cart the order is placed from (its id is the order's uuid): marked checked out with the order. */
  cartId?: string;
  /**
   * Records, in the statement, the start of the order's `orderPlaced` workflow (the api's outbox,
   * pending_workflow_starts, for `taskQueue`) when the New status has effects at placing
   * (placing-effects.ts) or the total is zero (its fulfilment needs no clearing).
   */
  placedStart?: { taskQueue: string };
}

export interface PlacedOrderRow {
  id: number;
  ordinalNumber: number;
  /** The `orderPlaced` start the statement recorded (`placedStart`), to send once committed; null when none. */
  placedStart: { outboxId: number; workflowId: string } | null;
}

/** Products of the cart that were removed, hidden or switched off while the order was priced. */
export class ProductsUnavailable extends Error {
  constructor(readonly productIds: number[]) {
    super(`products ${productIds.join(', ')} are no longer available`);
  }
}

/** Products whose catalogue price changed (a time-limited discount began or ended, an owner's edit) after the cart was priced: price it again. */
export class ProductPricesChanged extends Error {
  constructor(readonly productIds: number[]) {
    super(`the prices of products ${productIds.join(', ')} changed while the order was priced`);
  }
}

interface Outcome {
  order_id: number | null;
  ordinal_number: number | null;
  available: { id: number; price: string }[];
  code_free: boolean | null;
  autos_free: number[];
  placed_start: { id: string; workflow_id: string } | null;
}

/**
 * The statement. Products stay as priced until the order is stored: a concurrent DELETE (which
 * locks the product FOR UPDATE and checks for orders after) waits, then finds this order and hides
 * the product; a product removed, hidden or switched off meanwhile is not found (refused), and one
 * whose price changed since it was priced asks for pricing again. The order's lines keep the cart's
 * order (`pos`), so their ids follow it.
 */
function placementSql(input: NewOrder): string {
  const withCode = Boolean(input.discount);
  return `
with wanted as (select * from jsonb_to_recordset(:wanted::jsonb) as w(id int, price numeric)),
prod as materialized (
  select p.id, p.price from shop_products p
   where p.shop_id = :shop and p.id in (select id from wanted) ${input.alreadyPaid ? '' : 'and p.active and not p.hidden'}
   order by p.id for share),
ready as (select coalesce(bool_and(p.id is not null and (w.price is null or p.price = w.price)), false) as ok from wanted w left join prod p on p.id = w.id),
code_locked as materialized (
  select c.id, (c.usages_limit is null or c.usages < c.usages_limit) as free from shop_discount_codes c
   where ${withCode ? 'c.shop_id = :shop and c.id = :codeId' : 'false'} and (select ok from ready)
   for no key update),
code_ok as (select ${withCode ? 'coalesce((select free from code_locked), false)' : 'true'} as ok),
auto_locked as materialized (
  select a.id, (a.usages_limit is null or a.usages < a.usages_limit) as free from shop_automatic_discounts a
   where a.shop_id = :shop and a.id = any(:autoIds::int[]) and (select ok from ready) and (select ok from code_ok)
   order by a.id for no key update),
checks as (
  select (select ok from ready) and (select ok from code_ok)
     and (select count(*) = cardinality(:autoIds::int[]) and coalesce(bool_and(free), true) from auto_locked) as ok),
code_use as (update shop_discount_codes c set usages = c.usages + 1 from code_locked l where c.id = l.id and (select ok from checks) returning c.id),
auto_use as (update shop_automatic_discounts a set usages = a.usages + 1 from auto_locked l where a.id = l.id and (select ok from checks) returning a.id),
counter as (update shops set next_ordinal_number = next_ordinal_number + 1 where id = :shop and (select ok from checks) returning next_ordinal_number - 1 as n),
ord as (
  insert into shop_orders (shop_id, uuid, ordinal_number, internal_status, order_status_id, email, currency, products_cost, delivery_cost, payment_cost,
    gift_packing_cost, total_discount, total, delivery_type_id, delivery_method, delivery_vat_rate, payment_type_id, payment_method, payment_vat_rate,
    cash_on_delivery, discount_code, discount_code_id, ref, comment, delivery_address, invoice_address, placed_ip, order_attributes, notes, newsletter,
    delivery_point_code, invoice_recipient_name, analytics_client_id, placed_at, created_at, updated_at)
  select :shop, :uuid, counter.n, 'placed', :status, :email, :currency, :productsCost, :deliveryCost, :paymentCost,
    :giftPackingCost, :totalDiscount, :total, :deliveryId, :deliveryName, :deliveryVat, :paymentId, :paymentName, :paymentVat,
    :cashOnDelivery, :code, :codeRef, :ref, :comment, :deliveryAddress::jsonb, :invoiceAddress::jsonb, :placedIp, :attributes::jsonb, '[]', :newsletter,
    :deliveryPoint, :invoiceRecipient, :analyticsClientId, :placedAt, :now, :now
    from counter
  returning id, ordinal_number),
items as (
  insert into shop_order_items (shop_id, order_id, product_id, name, sku, quantity, unit_price, vat_rate, price, discount, final_price, electronic, subscriber_identifiers, ref)
  select :shop, ord.id, l."productId", l.name, l.sku, l.quantity, l."unitPrice", l."vatRate", l.price, l.discount, l."finalPrice", l.electronic, '{}', :ref
    from ord cross join jsonb_to_recordset(:lines::jsonb) as l(pos int, "productId" int, name text, sku text, quantity int, "unitPrice" numeric, "vatRate" int,
      price numeric, discount numeric, "finalPrice" numeric, electronic boolean)
   order by l.pos
  returning id)${
    input.cartId
      ? `,
cart as (update shop_carts set order_id = ord.id, updated_at = now() from ord where shop_carts.id = :cart and shop_carts.shop_id = :shop and shop_carts.order_id is null returning shop_carts.id)`
      : ''
  }${
    input.placedStart
      ? `,
placed_start as (
  insert into pending_workflow_starts (task_queue, workflow_type, workflow_id, request, recorded_at, next_attempt_at)
  select :taskQueue, 'orderPlaced', :placedIdHead || ord.id || :placedIdTail,
         jsonb_build_object('kind', 'start', 'args', jsonb_build_array(jsonb_build_object('shopId', :shop::text, 'orderId', ord.id))), clock_timestamp(), clock_timestamp()
    from ord where :total::numeric <= 0 or ${PLACING_HAS_EFFECTS_SQL}
  returning id, workflow_id)`
      : ''
  }
select (select id from ord) as order_id, (select ordinal_number from ord) as ordinal_number,
       (select coalesce(jsonb_agg(jsonb_build_object('id', id, 'price', price::text)), '[]') from prod) as available,
       (select free from code_locked) as code_free,
       (select coalesce(jsonb_agg(id), '[]') from auto_locked where free) as autos_free,
       ${input.placedStart ? "(select jsonb_build_object('id', id, 'workflow_id', workflow_id) from placed_start)" : 'null::jsonb'} as placed_start`;
}

function placementStatement(input: NewOrder, productIds: readonly number[]): Statement {
  const { cart, discount, pricedAt } = input;
  const variant = `${input.discount ? 'c' : ''}${input.alreadyPaid ? 'p' : ''}${input.cartId ? 'k' : ''}${input.placedStart ? 's' : ''}`;
  const [placedIdHead, placedIdTail] = orderPlacedWorkflowIdAround(input.shopId);
  return statement(`shop-place-order-${variant}`, placementSql(input), {
    wanted: JSON.stringify(productIds.map((id) => ({ id, price: pricedAt?.get(id) ?? null }))),
    shop: input.shopId,
    ...(discount ? { codeId: discount.id } : {}),
    // Each once: the statement compares their count with the discounts it locked.
    autoIds: intArray([...new Set(input.automaticDiscountIds ?? [])]),
    uuid: input.uuid ?? randomUUID(),
    status: input.statusId,
    email: input.email,
    currency: input.currency,
    productsCost: cart.productsCost,
    deliveryCost: cart.deliveryCost,
    paymentCost: cart.paymentCost,
    giftPackingCost: cart.giftPackingCost,
    totalDiscount: cart.totalDiscount,
    total: cart.total,
    deliveryId: input.delivery?.id ?? null,
    deliveryName: input.delivery?.name ?? null,
    deliveryVat: input.delivery?.vatRate ?? null,
    paymentId: input.payment?.id ?? null,
    paymentName: input.payment?.name ?? null,
    paymentVat: input.payment?.vatRate ?? null,
    cashOnDelivery: input.payment?.cashOnDelivery ?? false,
    code: discount?.code ?? null,
    codeRef: discount?.id ?? null,
    ref: input.ref,
    comment: input.comment,
    deliveryAddress: input.deliveryAddress === null ? null : JSON.stringify(input.deliveryAddress),
    invoiceAddress: input.invoiceAddress === null ? null : JSON.stringify(input.invoiceAddress),
    placedIp: input.placedIp,
    attributes: JSON.stringify(input.orderAttributes ?? []),
    newsletter: input.newsletter,
    deliveryPoint: input.deliveryPointCode || null,
    invoiceRecipient: input.invoiceRecipientName ?? '',
    analyticsClientId: input.analyticsClientId ?? null,
    placedAt: input.placedAt,
    now: new Date(),
    // The priced lines as they are (jsonb_to_recordset reads the fields it names), each with its place.
    lines: JSON.stringify(cart.lines.map((line, pos) => ({ ...line, pos }))),
    ...(input.cartId ? { cart: input.cartId } : {}),
    ...(input.placedStart ? { taskQueue: input.placedStart.taskQueue, placedIdHead, placedIdTail } : {}),
  });
}

/** Why the statement stored nothing, as the placement's errors (the order in which the original checks ran). */
function refusal(outcome: Outcome, input: NewOrder, productIds: readonly number[]): Error {
  const available = new Map(outcome.available.map((row) => [row.id, row.price]));
  const gone = productIds.filter((id) => !available.has(id));
  if (gone.length > 0) return new ProductsUnavailable(gone);
  const { pricedAt } = input;
  const repriced = pricedAt ? productIds.filter((id) => pricedAt.has(id) && !money(available.get(id)!).equals(pricedAt.get(id)!)) : [];
  if (repriced.length > 0) return new ProductPricesChanged(repriced);
  if (input.discount && outcome.code_free !== true) return new DiscountCodeRefused('used_up');
  const free = new Set(outcome.autos_free);
  const usedUp = [...new Set(input.automaticDiscountIds ?? [])].sort((a, b) => a - b).find((id) => !free.has(id));
  if (usedUp !== undefined) return new AutomaticDiscountUsedUp(usedUp);
  return new Error('the order was not stored, for no reason the placement knows');
}

async function placeOnce(em: EntityManager, input: NewOrder): Promise<PlacedOrderRow> {
  const productIds = [...new Set(input.cart.lines.map((line) => line.productId))].sort((a, b) => a - b);
  const [outcome] = await runStatement<Outcome>(em, placementStatement(input, productIds));
  if (!outcome || outcome.order_id === null || outcome.ordinal_number === null) throw refusal(outcome!, input, productIds);
  const started = outcome.placed_start;
  return { id: outcome.order_id, ordinalNumber: outcome.ordinal_number, placedStart: started ? { outboxId: Number(started.id), workflowId: started.workflow_id } : null };
}

/**
 * Stores a priced order (one statement, see above); a refusal throws ProductsUnavailable,
 * ProductPricesChanged, DiscountCodeRefused or AutomaticDiscountUsedUp and stores nothing. The
 * ordinal number is taken with the order, so no two orders share one and a refused one takes none.
 */
export async function insertOrder(em: EntityManager, input: NewOrder): Promise<PlacedOrderRow> {
  const limit = input.discount?.perCustomerLimit ?? null;
  if (limit === null) return placeOnce(em, input);
  // The customer's orders with the code, counted after the code's row lock (read committed: a new
  // snapshot sees every order committed before), this order included; too many rolls it back.
  return em.transactional(async (tx) => {
    const placed = await placeOnce(tx, input);
    const [row] = await tx.execute<{ n: string }[]>('select count(*) as n from shop_orders where shop_id = ? and email = ? and discount_code_id = ?', [input.shopId, input.email, input.discount!.id]);
    if (Number(row!.n) > limit) throw new DiscountCodeRefused('used_up_by_customer');
    return placed;
  });
}
