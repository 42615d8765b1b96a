import { ERASED, erasedAddress, redactJson } from '../../../../domain/shared/personal-data.ts';
import { stripeAdapter } from '../../../../adapters/payments/stripe.ts';
import { parseStripePaymentReference } from '../../../../domain/shop/payment-gateway.ts';
import { openSecret } from '../../../../adapters/secrets/secret-box.ts';
import { likeEmail, redactRows, rows, type PersonalDataEntry, type PersonContext } from './context.ts';

/**
 * The shop's kinds of personal data (issue 29), in erasure order: what the person bought is kept
 * for tax law (orders, lines, amounts, invoice numbers, dates) with the personal fields replaced
 * by markers; consent, codes drawn for them and pending mails are removed; logs and stored
 * payloads are redacted. Every statement is scoped by the shop.
 */

/** `(<orders of the person>)`: by the address, or by the marker an earlier run left. */
const personOrders = `select id from shop_orders where shop_id = ? and lower(email) in (?, ?)`;
const orderParams = (ctx: PersonContext) => [ctx.tenantId, ctx.email, ctx.marker];
const personSubscribers = `select id from shop_subscribers where shop_id = ? and lower(email) in (?, ?)`;

const orders: PersonalDataEntry = {
  kind: 'orders',
  export: (ctx) =>
    rows(
      ctx,
      `select (to_jsonb(o) - 'shop_id' - 'uuid') || jsonb_build_object('items',
              (select coalesce(jsonb_agg(to_jsonb(i) - 'shop_id' order by i.id), '[]'::jsonb) from shop_order_items i where i.order_id = o.id)) as row
         from shop_orders o where o.shop_id = ? and lower(o.email) = ? order by o.id`,
      [ctx.tenantId, ctx.email],
    ),
  async collect(ctx) {
    const found: Record<string, unknown>[] = await ctx.em.execute(
      `select delivery_address, invoice_address, invoice_recipient_name, placed_ip, analytics_client_id, order_attributes from shop_orders where shop_id = ? and lower(email) = ?`,
      [ctx.tenantId, ctx.email],
    );
    return found.flatMap((o) => [
      ...addressValues(o.delivery_address),
      ...addressValues(o.invoice_address),
      o.invoice_recipient_name,
      o.placed_ip,
      o.analytics_client_id,
      ...(Array.isArray(o.order_attributes) ? o.order_attributes.map((a: { value?: unknown }) => a?.value) : []),
    ]);
  },
  /**
   * Kept: ordinal and invoice numbers, lines, amounts, VAT, dates, statuses, methods, payment and
   * tracking references. Replaced: the e-mail (marker), every address field but the country,
   * the invoice recipient's name, the buyer's comment, the attributes' values; gone: the IP, the
   * GA client id and the parcel point; operator notes redacted.
   */
  async erase(ctx) {
    const found: { id: number; delivery_address: Record<string, unknown> | null; invoice_address: Record<string, unknown> | null; order_attributes: { name: string; value: unknown }[] | null; notes: unknown }[] =
      await ctx.em.execute(`select id, delivery_address, invoice_address, order_attributes, notes from shop_orders where shop_id = ? and lower(email) = ? for update`, [ctx.tenantId, ctx.email]);
    for (const o of found) {
      await ctx.em.execute(
        `update shop_orders set email = ?, delivery_address = ?::jsonb, invoice_address = ?::jsonb,
                invoice_recipient_name = case when invoice_recipient_name is null then null else ? end,
                placed_ip = null, analytics_client_id = null, comment = case when comment is null then null else ? end, delivery_point_code = null,
                order_attributes = ?::jsonb, notes = ?::jsonb, updated_at = now()
          where id = ? and shop_id = ?`,
        [
          ctx.marker,
          JSON.stringify(erasedAddress(o.delivery_address, ctx.marker)),
          JSON.stringify(erasedAddress(o.invoice_address, ctx.marker)),
          ERASED,
          ERASED,
          JSON.stringify((o.order_attributes ?? []).map((a) => ({ ...a, value: ERASED }))),
          JSON.stringify(redactJson(o.notes ?? [], [ctx.email, ...ctx.personal], ctx.marker)),
          o.id,
          ctx.tenantId,
        ],
      );
    }
    return found.length;
  },
};

function addressValues(address: unknown): unknown[] {
  if (!address || typeof address !== 'object') return [];
  return Object.entries(address).filter(([k]) => k !== 'country').map(([, v]) => v);
}

const downloadCodes: PersonalDataEntry = {
  kind: 'download_codes',
  export: (ctx) =>
    rows(
      ctx,
      `select jsonb_build_object('id', c.id, 'order_id', c.order_id, 'file_name', c.file_name, 'usages', c.usages, 'usages_to_expire', c.usages_to_expire,
              'expires_at', c.expires_at, 'created_at', c.created_at) as row
         from shop_download_codes c join shop_orders o on o.id = c.order_id
        where c.shop_id = ? and lower(o.email) = ? order by c.id`,
      [ctx.tenantId, ctx.email],
    ),
  /** Revoked: expired now and used up (the link answers as any expired code does). */
  async erase(ctx) {
    const changed: unknown[] = await ctx.em.execute(
      `update shop_download_codes set expires_at = now(), usages_to_expire = least(usages_to_expire, usages)
        where shop_id = ? and order_id in (${personOrders}) and (expires_at > now() or usages < usages_to_expire)
        returning id`,
      [ctx.tenantId, ...orderParams(ctx)],
    );
    return changed.length;
  },
};

const subscribers: PersonalDataEntry = {
  kind: 'subscribers',
  export: (ctx) =>
    rows(
      ctx,
      `select (to_jsonb(s) - 'shop_id') || jsonb_build_object('periods',
              (select coalesce(jsonb_agg(to_jsonb(p) - 'shop_id' order by p.id), '[]'::jsonb) from shop_subscriber_periods p where p.subscriber_id = s.id)) as row
         from shop_subscribers s where s.shop_id = ? and lower(s.email) = ? order by s.id`,
      [ctx.tenantId, ctx.email],
    ),
  collect: async (ctx) =>
    ((await ctx.em.execute(`select custom_identifier from shop_subscribers where shop_id = ? and lower(email) = ?`, [ctx.tenantId, ctx.email])) as { custom_identifier: string | null }[]).map(
      (s) => s.custom_identifier,
    ),
  /** Stopped: an active subscriber ends now (its renewal workflow is woken by the erasure and ends); the e-mail and identifier replaced. */
  async erase(ctx) {
    const changed: unknown[] = await ctx.em.execute(
      `update shop_subscribers set email = ?, custom_identifier = case when custom_identifier is null then null else ? end,
              status = case when status = 'active' then 'ended' else status end, ended_at = coalesce(ended_at, now()), updated_at = now()
        where shop_id = ? and lower(email) = ? returning id`,
      [ctx.marker, ERASED, ctx.tenantId, ctx.email],
    );
    return changed.length;
  },
};

/** Detaches at Stripe the saved cards (`stripe:<customer>:<pm>`) of the person's subscribers, when the shop's gateway is Stripe. */
async function detachStripeCards(ctx: PersonContext): Promise<void> {
  if (!ctx.stripe) return;
  const [gateway]: { mode: string; secret_key_sealed: string | null }[] = await ctx.em.execute(`select mode, secret_key_sealed from shop_payment_gateways where shop_id = ?`, [ctx.tenantId]);
  if (gateway?.mode !== 'stripe' || !gateway.secret_key_sealed) return;
  const saved: { payment_reference: string }[] = await ctx.em.execute(
    `select payment_reference from shop_subscribers where shop_id = ? and id in (${personSubscribers}) and payment_reference like 'stripe:%'`,
    [ctx.tenantId, ...orderParams(ctx)],
  );
  const methods = new Set(saved.map((s) => parseStripePaymentReference(s.payment_reference)?.paymentMethodId).filter((pm): pm is string => !!pm));
  if (methods.size === 0) return;
  const stripe = stripeAdapter({ secretKey: openSecret(gateway.secret_key_sealed, ctx.stripe.secretsKey), apiUrl: ctx.stripe.apiUrl });
  for (const pm of methods) await stripe.detachPaymentMethod(pm);
}

/**
 * The saved payment method of each subscriber: detached at Stripe (shop in Stripe mode), then the
 * stored gateway reference cleared (the built-in test gateway keeps nothing else).
 */
const paymentMethods: PersonalDataEntry = {
  kind: 'payment_methods',
  export: (ctx) =>
    rows(
      ctx,
      `select jsonb_build_object('subscriber_id', id, 'payment_reference', payment_reference) as row
         from shop_subscribers where shop_id = ? and lower(email) = ? and payment_reference is not null order by id`,
      [ctx.tenantId, ctx.email],
    ),
  async erase(ctx) {
    await detachStripeCards(ctx);
    const changed: unknown[] = await ctx.em.execute(
      `update shop_subscribers set payment_reference = null, updated_at = now() where shop_id = ? and id in (${personSubscribers}) and payment_reference is not null returning id`,
      [ctx.tenantId, ...orderParams(ctx)],
    );
    return changed.length;
  },
};

const subscriberCharges: PersonalDataEntry = {
  kind: 'subscriber_charges',
  export: (ctx) =>
    rows(
      ctx,
      `select to_jsonb(c) - 'shop_id' as row from shop_subscriber_charges c
        where c.shop_id = ? and c.subscriber_id in (select id from shop_subscribers where shop_id = ? and lower(email) = ?) order by c.id`,
      [ctx.tenantId, ctx.tenantId, ctx.email],
    ),
  erase: (ctx) => redactRows(ctx, { table: 'shop_subscriber_charges', json: ['cart'], text: ['decline_reason'], where: `shop_id = ? and subscriber_id in (${personSubscribers})`, params: [ctx.tenantId, ...orderParams(ctx)] }),
};

const newsletterConsent: PersonalDataEntry = {
  kind: 'newsletter_consent',
  export: (ctx) => rows(ctx, `select jsonb_build_object('email', email, 'created_at', created_at) as row from shop_newsletter_subscribers where shop_id = ? and lower(email) = ?`, [ctx.tenantId, ctx.email]),
  async erase(ctx) {
    const gone: unknown[] = await ctx.em.execute(`delete from shop_newsletter_subscribers where shop_id = ? and lower(email) = ? returning id`, [ctx.tenantId, ctx.email]);
    return gone.length;
  },
};

const recipientCodes: PersonalDataEntry = {
  kind: 'recipient_codes',
  export: (ctx) =>
    rows(
      ctx,
      `select jsonb_build_object('sequence_id', r.sequence_id, 'discount_code', d.code, 'created_at', r.created_at) as row
         from shop_mail_sequence_recipient_codes r left join shop_discount_codes d on d.id = r.discount_code_id
        where r.shop_id = ? and lower(r.email) = ? order by r.id`,
      [ctx.tenantId, ctx.email],
    ),
  async erase(ctx) {
    const gone: unknown[] = await ctx.em.execute(`delete from shop_mail_sequence_recipient_codes where shop_id = ? and lower(email) = ? returning id`, [ctx.tenantId, ctx.email]);
    return gone.length;
  },
};

const emailDiscounts: PersonalDataEntry = {
  kind: 'email_discounts',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('id', id, 'kind', kind, 'discount_type', discount_type, 'value', value, 'active', active) as row from shop_automatic_discounts where shop_id = ? and lower(email) = ? order by id`, [
      ctx.tenantId,
      ctx.email,
    ]),
  /** An automatic discount for this one address: its address replaced, so it applies to no one. */
  async erase(ctx) {
    const changed: unknown[] = await ctx.em.execute(`update shop_automatic_discounts set email = ?, updated_at = now() where shop_id = ? and lower(email) = ? returning id`, [ctx.marker, ctx.tenantId, ctx.email]);
    return changed.length;
  },
};

const mails: PersonalDataEntry = {
  kind: 'mails',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('to', "to", 'kind', kind, 'subject', subject, 'html', html, 'status', status, 'sent_at', sent_at) as row from shop_mails where shop_id = ? and lower("to") = ? order by sent_at, id`, [
      ctx.tenantId,
      ctx.email,
    ]),
  /** Mails not sent yet are removed; the sent ones keep kind, status and time, to the marker, subject and body erased. Copies to others are redacted. */
  async erase(ctx) {
    const pending: unknown[] = await ctx.em.execute(`delete from shop_mails where shop_id = ? and lower("to") = ? and status not in ('sent', 'recorded') returning id`, [ctx.tenantId, ctx.email]);
    const sent: unknown[] = await ctx.em.execute(
      `update shop_mails set "to" = ?, subject = ?, html = ?, error = null, key = replace(lower(key), ?, ?) where shop_id = ? and lower("to") = ? returning id`,
      [ctx.marker, ERASED, ERASED, ctx.email, ctx.marker, ctx.tenantId, ctx.email],
    );
    const like = likeEmail('html', ctx);
    const copies = await redactRows(ctx, { table: 'shop_mails', text: ['subject', 'html', 'key'], where: `shop_id = ? and ${like.sql}`, params: [ctx.tenantId, ...like.params] });
    return pending.length + sent.length + copies;
  },
};

const orderEffects: PersonalDataEntry = {
  kind: 'order_effects',
  erase: (ctx) => redactRows(ctx, { table: 'shop_order_effects', text: ['detail'], where: `shop_id = ? and order_id in (${personOrders})`, params: [ctx.tenantId, ...orderParams(ctx)] }),
};

const webhookPayloads: PersonalDataEntry = {
  kind: 'webhook_payloads',
  export: (ctx) =>
    rows(
      ctx,
      `select jsonb_build_object('event_id', event_id, 'event_type', event_type, 'occurred_at', occurred_at, 'status', status, 'payload', payload) as row
         from shop_webhook_deliveries where shop_id = ? and lower(payload->'order'->>'email') = ? order by occurred_at, id`,
      [ctx.tenantId, ctx.email],
    ),
  erase: (ctx) => {
    const like = likeEmail('payload::text', ctx);
    return redactRows(ctx, {
      table: 'shop_webhook_deliveries',
      json: ['payload'],
      where: `shop_id = ? and ((payload->'order'->>'id')::int in (${personOrders}) or ${like.sql})`,
      params: [ctx.tenantId, ...orderParams(ctx), ...like.params],
    });
  },
};

const clubWebhookPayloads: PersonalDataEntry = {
  kind: 'club_webhook_payloads',
  erase: (ctx) => {
    const like = likeEmail('payload::text', ctx);
    return redactRows(ctx, {
      table: 'shop_club_webhook_deliveries',
      json: ['payload'],
      where: `shop_id = ? and (order_id in (${personOrders}) or ${like.sql})`,
      params: [ctx.tenantId, ...orderParams(ctx), ...like.params],
    });
  },
};

const auditLog: PersonalDataEntry = {
  kind: 'audit_log',
  erase: (ctx) => {
    const like = likeEmail('path', ctx);
    return redactRows(ctx, { table: 'shop_audit_log', text: ['path'], where: `shop_id = ? and ${like.sql}`, params: [ctx.tenantId, ...like.params] });
  },
};

/** Replies kept for Idempotency-Key repeats (24 h) of the shop API and the storefront that hold the address. */
const idempotentReplies: PersonalDataEntry = {
  kind: 'idempotent_replies',
  export: (ctx) => {
    const like = likeEmail('body', ctx);
    return rows(
      ctx,
      `select jsonb_build_object('key', key, 'status', status, 'body', body, 'claimed_at', claimed_at) as row from idempotency_keys
        where ((tenant_kind = 'shop' and tenant_id = ?::text) or (tenant_kind = 'storefront' and tenant_id = (select subdomain from shops where id = ?))) and ${like.sql} order by claimed_at`,
      [ctx.tenantId, ctx.tenantId, ...like.params],
    );
  },
  /** Gone whole: a repeat of such a request then runs again and finds the first one's effect. */
  async erase(ctx) {
    const like = likeEmail('body', ctx);
    const gone: unknown[] = await ctx.em.execute(
      `delete from idempotency_keys where ((tenant_kind = 'shop' and tenant_id = ?::text) or (tenant_kind = 'storefront' and tenant_id = (select subdomain from shops where id = ?))) and ${like.sql} returning key`,
      [ctx.tenantId, ctx.tenantId, ...like.params],
    );
    return gone.length;
  },
};

const carts: PersonalDataEntry = {
  kind: 'carts',
  export: (ctx) =>
    rows(
      ctx,
      `select jsonb_build_object('id', id, 'state', state, 'order_id', order_id, 'created_at', created_at, 'updated_at', updated_at) as row
         from shop_carts where shop_id = ? and lower(state->>'email') = ? order by created_at`,
      [ctx.tenantId, ctx.email],
    ),
  /** A storefront cart is the buyer's own draft (e-mail, addresses, comment): gone whole, checked out or not (its order is kept above). */
  async erase(ctx) {
    const gone: unknown[] = await ctx.em.execute(`delete from shop_carts where shop_id = ? and lower(state->>'email') in (?, ?) returning id`, orderParams(ctx));
    return gone.length;
  },
};

const stripeCustomers: PersonalDataEntry = {
  kind: 'stripe_customers',
  export: (ctx) =>
    rows(ctx, `select jsonb_build_object('customer_id', customer_id, 'email', email, 'created_at', created_at) as row from shop_stripe_customers where shop_id = ? and lower(email) = ? order by id`, [
      ctx.tenantId,
      ctx.email,
    ]),
  /** The shop's link from the address to its Stripe customer: gone (after the saved cards are detached). */
  async erase(ctx) {
    const gone: unknown[] = await ctx.em.execute(`delete from shop_stripe_customers where shop_id = ? and lower(email) in (?, ?) returning id`, orderParams(ctx));
    return gone.length;
  },
};

const orderPayments: PersonalDataEntry = {
  kind: 'order_payments',
  export: (ctx) =>
    rows(
      ctx,
      `select to_jsonb(p) - 'shop_id' as row from shop_order_payments p where p.shop_id = ? and p.order_id in (select id from shop_orders where shop_id = ? and lower(email) = ?) order by p.id`,
      [ctx.tenantId, ctx.tenantId, ctx.email],
    ),
  /** Kept for the accounts: the PaymentIntent, amount, currency, dates; the Stripe customer and card that name the person cleared. */
  async erase(ctx) {
    const changed: unknown[] = await ctx.em.execute(
      `update shop_order_payments set customer_id = null, payment_method_id = null
        where shop_id = ? and order_id in (${personOrders}) and (customer_id is not null or payment_method_id is not null) returning id`,
      [ctx.tenantId, ...orderParams(ctx)],
    );
    return changed.length;
  },
};

/**
 * In erasure order: entries that find rows through the person's orders or subscribers run
 * after those are redacted too (they match the marker as well as the address).
 */
export const SHOP_PERSONAL_DATA: readonly PersonalDataEntry[] = [
  orders,
  downloadCodes,
  subscribers,
  paymentMethods,
  stripeCustomers,
  orderPayments,
  subscriberCharges,
  newsletterConsent,
  carts,
  idempotentReplies,
  recipientCodes,
  emailDiscounts,
  mails,
  orderEffects,
  webhookPayloads,
  clubWebhookPayloads,
  auditLog,
];
