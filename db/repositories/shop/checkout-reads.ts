/**
 * Everything a pricing reads of the shop, in ONE statement (issue 26: the storefront prices on
 * every cart request, and each read was a round trip and an ORM hydration): the cart's products,
 * the shop's active delivery and payment types (the chosen ones and the list a cart reply offers),
 * the typed discount code with its pool, the automatic discounts that may apply to the buyer, the
 * buyer's newsletter sign-up and subscriber plans, for a placement the statuses it needs and for
 * a cart's reply the recommendations.
 * Each part is a scalar subquery building JSON with the snapshot's own field names; amounts are
 * sent as text (as the ORM reads them) and timestamps parsed back into dates here. A prepared
 * statement (shared/prepared.ts): its text is long.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { CART_AUTOMATIC_TYPES, type AutomaticDiscountSnapshot } from '../../../domain/shop/automatic-discount-pricing.ts';
import type { CodeSnapshot } from '../../../domain/shop/discount-code-pricing.ts';
import type { ProductSnapshot } from '../../../domain/shop/pricing.ts';
import type { PricingReadKeys } from '../../../domain/shop/pricing-inputs.ts';
import { runStatement, statement } from '../shared/prepared.ts';
import { cartRowSql, cartUseValues, type StoredCart } from './carts.ts';
import { distinctRecommendations, recommendationsSql, type Recommendation } from './storefront.ts';
import { STRIPE_GATEWAY_ON_SQL } from './subscriber-billing.ts';
import { arrayLiteral, intArray } from '../shared/array-literal.ts';

/** A delivery or payment type as pricing and the cart reply read it. */
export interface CheckoutChargeType {
  id: number;
  name: string;
  nameDisplayed: string;
  defaultPrice: string;
  vatRate: number;
  /** Delivery types. */
  domestic?: boolean;
  /** Payment types. */
  cashOnDelivery?: boolean;
}

/** The read's keys (domain/shop/pricing-inputs.ts `pricingReadKeys`) and its parts. */
export interface CheckoutReadsInput extends PricingReadKeys {
  now: Date;
  /**
   * A placement: also the New status, the statuses set automatically and whether the gateway is
   * Stripe; not the shop's lists of types (`deliveryTypes` and `paymentTypes` are then empty).
   */
  statuses?: boolean;
  /** A cart's reply: also the recommendations for `productIds`. */
  recommendations?: boolean;
}

export interface CheckoutReads {
  /** The shop's products among `productIds` a cart may hold (a hidden product counts as deleted), by id. */
  products: ProductSnapshot[];
  /** The chosen types when active; null when none was chosen or it is not an active type of the shop. */
  delivery: CheckoutChargeType | null;
  payment: CheckoutChargeType | null;
  /** The shop's active types (at most 1000 of each, by id): what a cart may choose from. Empty with `statuses`. */
  deliveryTypes: CheckoutChargeType[];
  paymentTypes: CheckoutChargeType[];
  /** The shop's code (a pool's too) matching the typed one ignoring case; the pricing checks case. */
  code: CodeSnapshot | null;
  /**
   * The shop's active automatic discounts of the types checkout applies, by id, leaving out the
   * email-address discounts of other addresses (a shop may hold one per customer).
   */
  automaticDiscounts: AutomaticDiscountSnapshot[];
  /** The address signed up for the shop's newsletter (stored trimmed and lower case). */
  newsletterSubscriber: boolean;
  /**
   * The `free_delivery_minimum_amount` of each plan (with one set) of which the address holds an
   * active subscriber of this shop: status active and the latest period not over at `now`.
   */
  subscriberPlanMinimums: string[];
  /** With `statuses`: the shop's New status and the ones set automatically, by id. */
  statuses: { id: number; kind: string; automaticallySet: unknown }[];
  /** With `statuses`: the shop's gateway is Stripe with a secret key (subscriber-billing.ts `stripeGatewayOn`). */
  stripeGateway: boolean;
  /** With `recommendations`: those for `productIds` (storefront.ts `recommendationsFor`). */
  recommendations?: Recommendation[];
}

type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };

interface ReadsRow {
  products: ProductSnapshot[];
  delivery: CheckoutChargeType | null;
  payment: CheckoutChargeType | null;
  delivery_types: CheckoutChargeType[];
  payment_types: CheckoutChargeType[];
  code: Dated<CodeSnapshot, 'startDate' | 'endDate' | 'drawnAt'> | null;
  automatic_discounts: Dated<AutomaticDiscountSnapshot, 'startDate' | 'endDate'>[];
  newsletter_subscriber: boolean;
  minimums: string[];
  statuses: CheckoutReads['statuses'];
  stripe_gateway: boolean;
  recommendations: Recommendation[] | null;
}

const chargeType = (alias: string, own: string) =>
  `jsonb_build_object('id', ${alias}.id, 'name', ${alias}.name, 'nameDisplayed', ${alias}.name_displayed, 'defaultPrice', ${alias}.default_price::text, 'vatRate', ${alias}.vat_rate, ${own})`;
const DELIVERY = chargeType('d', `'domestic', d.domestic`);
const PAYMENT = chargeType('t', `'cashOnDelivery', t.cash_on_delivery`);

/** The inputs as the statement reads them: bound values, or (a cart's read) the columns of `ci`. */
interface InputSql {
  products: string;
  delivery: string;
  payment: string;
  code: string;
  emailPattern: string;
  subscriberEmail: string;
  email: string;
}

const BOUND: InputSql = {
  products: ':products::int[]',
  delivery: ':delivery',
  payment: ':payment',
  code: ':code',
  emailPattern: ':emailPattern',
  subscriberEmail: ':subscriberEmail',
  email: ':email',
};

const readsSql = (withStatuses: boolean, withRecommendations: boolean, v: InputSql) => `
select
  (select coalesce(jsonb_agg(jsonb_build_object(
            'id', p.id, 'name', p.name, 'sku', p.sku, 'price', p.price::text, 'vatRate', p.vat_rate, 'active', p.active,
            'allowPriceChange', p.allow_price_change, 'minimalPrice', p.minimal_price::text, 'allowZeroMinimalPrice', p.allow_zero_minimal_price,
            'electronic', p.electronic, 'deliveryTypeIds', p.delivery_type_ids, 'paymentTypeIds', p.payment_type_ids,
            'cartQuantityLimit', p.cart_quantity_limit, 'categoryIds', p.product_category_ids) order by p.id), '[]')
     from shop_products p where p.shop_id = :shop and p.id = any(${v.products}) and not p.hidden) as products,
  (select ${DELIVERY} from shop_delivery_types d where d.shop_id = :shop and d.id = ${v.delivery} and d.active) as delivery,
  (select ${PAYMENT} from shop_payment_types t where t.shop_id = :shop and t.id = ${v.payment} and t.active) as payment,
  ${
    withStatuses
      ? `'[]'::jsonb as delivery_types, '[]'::jsonb as payment_types,`
      : `(select coalesce(jsonb_agg(${DELIVERY} order by d.id), '[]')
     from (select * from shop_delivery_types where shop_id = :shop and active order by id limit 1000) d) as delivery_types,
  (select coalesce(jsonb_agg(${PAYMENT} order by t.id), '[]')
     from (select * from shop_payment_types where shop_id = :shop and active order by id limit 1000) t) as payment_types,`
  }
  (select jsonb_build_object(
            'id', c.id, 'code', c.code, 'caseSensitive', c.case_sensitive, 'discountType', c.discount_type, 'value', c.value::text,
            'minimumAmount', c.minimum_amount::text, 'usages', c.usages, 'usagesLimit', c.usages_limit, 'usagesPerCustomerLimit', c.usages_per_customer_limit,
            'active', c.active, 'combineWithOtherDiscount', c.combine_with_other_discount, 'startDate', c.start_date, 'endDate', c.end_date,
            'relationWithProducts', c.relation_with_products, 'productIds', c.product_ids, 'productCategoryIds', c.product_category_ids,
            'relationWithDeliveryTypes', c.relation_with_delivery_types, 'deliveryTypeIds', c.delivery_type_ids, 'drawnAt', c.drawn_at,
            'pool', case when c.pool_id is null then null else jsonb_build_object('activateOnDraw', coalesce(pl.activate_on_draw, false)) end)
     from shop_discount_codes c left join shop_discount_code_pools pl on pl.id = c.pool_id
    where ${v.code} <> '' and c.shop_id = :shop and lower(c.code) = lower(${v.code})) as code,
  (select coalesce(jsonb_agg(jsonb_build_object(
            'id', a.id, 'kind', a.kind, 'discountType', a.discount_type, 'value', a.value::text, 'relationWithProducts', a.relation_with_products,
            'productIds', a.product_ids, 'productCategoryIds', a.product_category_ids, 'usagesLimit', a.usages_limit, 'usages', a.usages,
            'active', a.active, 'email', a.email, 'emailDomain', a.email_domain, 'minimumOrderValue', a.minimum_order_value::text,
            'startDate', a.start_date, 'endDate', a.end_date) order by a.id), '[]')
     from shop_automatic_discounts a
    where a.shop_id = :shop and a.active and a.discount_type = any(:types::text[])
      and (a.kind <> 'email_address' or a.email ilike ${v.emailPattern})) as automatic_discounts,
  exists (select 1 from shop_newsletter_subscribers n where n.shop_id = :shop and n.email = ${v.subscriberEmail}) as newsletter_subscriber,
  array(select distinct pl.free_delivery_minimum_amount::text
          from shop_subscribers s join shop_subscription_plans pl on pl.id = s.plan_id and pl.shop_id = s.shop_id
         where s.shop_id = :shop and lower(s.email) = lower(${v.email}) and s.status = 'active'
           and pl.free_delivery_minimum_amount is not null
           and (select max(p.ends_at) from shop_subscriber_periods p where p.subscriber_id = s.id) > :now) as minimums,
  ${
    withStatuses
      ? `(select coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'kind', s.kind, 'automaticallySet', s.automatically_set) order by s.id), '[]')
     from shop_order_statuses s where s.shop_id = :shop and (s.kind = 'NewDefaultOrderStatus' or s.automatically_set is not null))`
      : `'[]'::jsonb`
  } as statuses,
  ${withStatuses ? STRIPE_GATEWAY_ON_SQL : 'false'} as stripe_gateway,
  ${
    withRecommendations
      ? `(select coalesce(jsonb_agg(to_jsonb(r) order by r.priority desc, r.id), '[]') from (${recommendationsSql(v.products)}) r)`
      : 'null::jsonb'
  } as recommendations`;

/** The bound values every read shares: the shop, the automatic discounts' types and `now`. */
function readsValues(shopId: string, input: Pick<CheckoutReadsInput, 'now'>) {
  return { shop: shopId, types: arrayLiteral(CART_AUTOMATIC_TYPES), now: input.now };
}

/** The e-mail forms the read matches on: the automatic discounts' pattern (ILIKE, escaped) and the newsletter's address. */
export function readEmails(email: string): { emailPattern: string; subscriberEmail: string } {
  return { emailPattern: email.replace(/[\\%_]/g, '\\$&'), subscriberEmail: email.trim().toLowerCase() };
}

const readsName = (prefix: string, input: Pick<CheckoutReadsInput, 'statuses' | 'recommendations'>) =>
  `${prefix}${input.statuses ? '-statuses' : ''}${input.recommendations ? '-recommendations' : ''}`;

function readsOf(r: ReadsRow, productIds: readonly number[]): CheckoutReads {
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return {
    products: r.products,
    delivery: r.delivery,
    payment: r.payment,
    deliveryTypes: r.delivery_types,
    paymentTypes: r.payment_types,
    code: r.code && { ...r.code, startDate: date(r.code.startDate), endDate: date(r.code.endDate), drawnAt: date(r.code.drawnAt) },
    automaticDiscounts: r.automatic_discounts.map((d) => ({ ...d, startDate: date(d.startDate), endDate: date(d.endDate) })),
    newsletterSubscriber: r.newsletter_subscriber,
    subscriberPlanMinimums: r.minimums,
    statuses: r.statuses,
    stripeGateway: r.stripe_gateway,
    ...(r.recommendations && { recommendations: distinctRecommendations(r.recommendations, productIds) }),
  };
}

export async function readCheckout(em: EntityManager, shopId: string, input: CheckoutReadsInput): Promise<CheckoutReads> {
  const sql = readsSql(input.statuses ?? false, input.recommendations ?? false, BOUND);
  const [row] = await runStatement<ReadsRow>(em, statement(readsName('shop-checkout-reads', input), sql, {
    ...readsValues(shopId, input),
    products: intArray(input.productIds),
    delivery: input.deliveryTypeId,
    payment: input.paymentTypeId,
    code: input.typedCode,
    ...readEmails(input.email),
    email: input.email,
  }));
  return readsOf(row!, input.productIds);
}

/** A read made with a cart's (`useCartWithReads`), and the inputs it was made for. */
export interface PrefetchedReads {
  input: CheckoutReadsInput & { emailPattern: string; subscriberEmail: string };
  reads: CheckoutReads;
}

/** Whether `prefetched` was read for what `input` asks (the same values, the same parts): then it is that read. */
export function readFor(prefetched: PrefetchedReads | undefined, input: CheckoutReadsInput): PrefetchedReads | undefined {
  const read = prefetched?.input;
  if (!read) return undefined;
  const ids = new Set(input.productIds);
  const same =
    Boolean(read.statuses) === Boolean(input.statuses) &&
    Boolean(read.recommendations) === Boolean(input.recommendations) &&
    read.deliveryTypeId === input.deliveryTypeId &&
    read.paymentTypeId === input.paymentTypeId &&
    read.typedCode === input.typedCode &&
    read.email === input.email &&
    read.emailPattern === readEmails(input.email).emailPattern &&
    read.subscriberEmail === readEmails(input.email).subscriberEmail &&
    read.productIds.length === ids.size &&
    read.productIds.every((id) => ids.has(id));
  return same ? prefetched : undefined;
}

/**
 * A cart's fields the read depends on, as a change of the cart will store them (sent fields only):
 * the read is made for the cart's state with these in place.
 */
export interface CartReadsPatch {
  items?: { product_id: number }[];
  email?: string | null;
  discount_code?: string | null;
  delivery_type_id?: number | null;
  payment_type_id?: number | null;
}

interface CartReadsRow extends ReadsRow {
  id: string;
  state: StoredCart['state'];
  order_id: number | null;
  placed_order_id: number | null;
  read_products: number[];
  read_delivery: number | null;
  read_payment: number | null;
  read_code: string;
  read_email: string;
  read_email_pattern: string;
  read_subscriber_email: string;
}

/**
 * The cart's inputs taken from its state (with `:patch` in place) by the statement itself, as
 * `pricingReadKeys` (domain/shop/pricing-inputs.ts) takes them from the placement body the cart
 * stands for, so that the cart and its read come in one round trip: the items' products,
 * the types, the code as stored (a cart keeps it trimmed), the e-mail lower case. Where SQL's
 * forms differ from JavaScript's (another case mapping, a product set's products), `readFor`
 * finds the inputs not the same and the read is made again.
 */
const CART_INPUTS = `${cartRowSql(', c.state || :patch::jsonb as s')},
ci0 as (
  select array(select distinct (e->>'product_id')::int from jsonb_array_elements(cart_row.s->'items') e) as products,
         (cart_row.s->>'delivery_type_id')::int as delivery, (cart_row.s->>'payment_type_id')::int as payment,
         coalesce(cart_row.s->>'discount_code', '') as code, lower(coalesce(cart_row.s->>'email', '')) as email
    from cart_row),
ci as (
  select ci0.*, replace(replace(replace(ci0.email, chr(92), chr(92) || chr(92)), '%', chr(92) || '%'), '_', chr(92) || '_') as email_pattern,
         lower(btrim(ci0.email)) as subscriber_email
    from ci0)`;

const CART_INPUT_SQL: InputSql = {
  products: 'ci.products',
  delivery: 'ci.delivery',
  payment: 'ci.payment',
  code: 'ci.code',
  emailPattern: 'ci.email_pattern',
  subscriberEmail: 'ci.subscriber_email',
  email: 'ci.email',
};

const cartReadsSql = (withStatuses: boolean, withRecommendations: boolean) => `${CART_INPUTS}
select cart_row.id, cart_row.state, cart_row.order_id, cart_row.placed_order_id,
       ci.products as read_products, ci.delivery as read_delivery, ci.payment as read_payment, ci.code as read_code, ci.email as read_email,
       ci.email_pattern as read_email_pattern, ci.subscriber_email as read_subscriber_email, r.*
  from cart_row cross join ci cross join lateral (${readsSql(withStatuses, withRecommendations, CART_INPUT_SQL)}) r`;

/**
 * The shop's cart with this id, its last use now (to the hour, as carts.ts `useCart`), and in the
 * same statement the checkout read for its state with `patch` in place (issue 26 item 2: one round
 * trip instead of two on a cart's change and its checkout); null for no such cart.
 */
export async function useCartWithReads(
  em: EntityManager,
  shopId: string,
  cartId: string,
  patch: CartReadsPatch,
  parts: Pick<CheckoutReadsInput, 'statuses' | 'recommendations'>,
): Promise<{ cart: StoredCart; prefetched: PrefetchedReads } | null> {
  const now = new Date();
  const sql = cartReadsSql(parts.statuses ?? false, parts.recommendations ?? false);
  const [row] = await runStatement<CartReadsRow>(em, statement(readsName('shop-cart-reads', parts), sql, {
    ...readsValues(shopId, { now }),
    ...cartUseValues(shopId, cartId, now),
    patch: JSON.stringify(patch),
  }));
  if (!row) return null;
  const input = {
    productIds: row.read_products,
    deliveryTypeId: row.read_delivery,
    paymentTypeId: row.read_payment,
    typedCode: row.read_code,
    email: row.read_email,
    emailPattern: row.read_email_pattern,
    subscriberEmail: row.read_subscriber_email,
    now,
    ...parts,
  };
  return {
    cart: { id: row.id, state: row.state, orderId: row.order_id, placedOrderId: row.placed_order_id },
    prefetched: { input, reads: readsOf(row, input.productIds) },
  };
}
