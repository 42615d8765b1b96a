/**
 * What the hostile walk's plain request of a route needs beyond the generated sample (required
 * members, first enum value, minimum) and the walk's default ids to succeed, keyed by
 * `METHOD /path`: the ids of existing rows (hostile-input-fixtures.ts), a body merged over the
 * sample where the sample breaks a rule beyond the schema (an e-mail, a domain, a cross-field rule),
 * a query the route needs. A route that deletes or changes its row for good names a row of its own.
 */
import { WALK_EMAILS, newBody, type WalkFixtures, type WalkTenants } from './hostile-input-fixtures.ts';

export interface ValidRequest {
  /** Path parameters, over the walk's defaults. */
  params?: Record<string, string | number>;
  /** Members merged over the sample body. */
  body?: Record<string, unknown>;
  /** The body as sent, instead of the sample (a signed event). */
  payload?: string;
  query?: string;
  headers?: Record<string, string>;
}

const email = (value: string) => `email=${encodeURIComponent(value)}`;

/** GET and PATCH of the row `kept` at `path` (its `{id}`), and DELETE of `doomed` when the route has one. */
function keptAndDoomed(path: string, kept: number | string, doomed?: number | string): Record<string, ValidRequest> {
  return {
    [`GET ${path}`]: { params: { id: kept } },
    [`PATCH ${path}`]: { params: { id: kept } },
    ...(doomed !== undefined && { [`DELETE ${path}`]: { params: { id: doomed } } }),
  };
}

export function validRequests(f: WalkFixtures, t: WalkTenants): Record<string, ValidRequest> {
  const { shop, targetShop } = f;
  const reportQuery = 'date_from=2026-01-01&date_to=2026-12-31';
  return {
    // The access interface.
    'POST /api/courses/subscribe': { body: { subscriptions: { course_id: t.course.id, email: 'walk-subscriber@example.com' } } },
    'POST /api/audiobooks/subscribe': { body: { subscriptions: { audiobook_id: f.access.audiobook, email: 'walk-subscriber@example.com' } } },
    'DELETE /api/courses/unsubscribe': { body: { unsubscriptions: { course_id: t.course.id, email: 'walk-subscriber@example.com' } } },
    'DELETE /api/audiobooks/unsubscribe': { body: { unsubscriptions: { audiobook_id: f.access.audiobook, email: 'walk-subscriber@example.com' } } },
    'GET /api/users/enrollments': { query: email(WALK_EMAILS.buyer) },
    'POST /api/orders': { body: { order: { email: WALK_EMAILS.buyer, external_id: 'walk-plain', ordered_contents: [{ course_ids: [t.course.id] }] } } },
    'DELETE /api/orders/{id}': { params: { id: f.access.order } },

    // The configuration interface: test mails go to the platform administrator only.
    'POST /api/v1/configuration/email_templates/{slug}/send_test': { body: { email: `admin@${t.platform.subdomain}.test` } },
    'POST /api/v1/configuration/courses/{course_id}/email_templates': { body: { send_after: 1 } },
    'GET /api/v1/configuration/courses/{course_id}/email_templates/{slug}': { params: { slug: 'course_invitation' } },
    'PATCH /api/v1/configuration/courses/{course_id}/email_templates/{slug}': { params: { slug: 'course_invitation' } },
    'POST /api/v1/configuration/courses/{course_id}/email_templates/{slug}/restore': { params: { slug: 'course_reinvitation' } },
    'POST /api/v1/configuration/courses/{course_id}/email_templates/{slug}/send_test': { params: { slug: 'course_invitation' }, body: { email: `admin@${t.platform.subdomain}.test` } },
    'POST /api/v1/configuration/webhooks': { body: newBody.webhook() },
    ...keptAndDoomed('/api/v1/configuration/webhooks/{id}', f.configuration.webhook, f.configuration.doomedWebhook),
    'GET /api/v1/configuration/webhooks/{id}/deliveries': { params: { id: f.configuration.webhook } },
    'POST /api/v1/configuration/webhooks/{id}/deliveries/{delivery_id}/redeliver': { params: { id: f.configuration.webhook, delivery_id: f.configuration.delivery } },
    'GET /files/{platform_id}/{file_id}': { params: { file_id: f.configuration.logoFile } },

    // The shop interface.
    'DELETE /api/v1/products/{id}': { params: { id: shop.doomedProduct } },
    'POST /api/v1/discount_codes': { body: newBody.discountCode() },
    'POST /api/v1/email_address_discounts': { body: newBody.emailAddressDiscount() },
    'POST /api/v1/email_domain_discounts': { body: newBody.emailDomainDiscount() },
    'POST /api/v1/time_limited_discounts': { body: newBody.timeLimitedDiscount() },
    ...Object.assign({}, ...Object.entries(shop.discounts).map(([resource, { kept, doomed }]) => keptAndDoomed(`/api/v1/${resource}/{id}`, kept, doomed))),
    'GET /api/v1/discount_code_pools/{id}': { params: { id: shop.pool } },
    'POST /api/v1/discount_code_pools/{id}/draw': { params: { id: shop.pool } },
    'POST /api/v1/product_sets': { body: { product_set: { name: 'Walk set', price: '15.00', items: shop.setProducts.map((product_id) => ({ product_id })) } } },
    ...keptAndDoomed('/api/v1/product_sets/{id}', shop.productSet, shop.doomedProductSet),
    ...keptAndDoomed('/api/v1/product_recommendation_groups/{id}', shop.group, shop.doomedGroup),
    'POST /api/v1/products/{product_id}/electronic_contents': { params: { product_id: shop.ebook }, body: { source_content_id: shop.content } },
    'PATCH /api/v1/products/{product_id}/electronic_contents/{id}': { params: { product_id: shop.ebook, id: shop.content } },
    'DELETE /api/v1/products/{product_id}/electronic_contents/{id}': { params: { product_id: shop.ebook, id: shop.doomedContent } },
    'GET /api/v1/orders/{id}': { params: { id: shop.order } },
    'PATCH /api/v1/orders/{id}/status': { params: { id: shop.orderToMove }, body: { order_status_id: t.shop.statuses.Sent } },
    'PATCH /api/v1/orders/{id}/clear': { params: { id: shop.orderToClear } },
    'POST /api/v1/orders/{id}/reset_download_limit': { params: { id: shop.paidOrder } },
    'GET /api/v1/orders/{id}/invoices': { params: { id: shop.paidOrder } },
    'GET /api/v1/orders/{id}/invoices/{invoice_id}': { params: { id: shop.paidOrder, invoice_id: shop.invoice } },
    'GET /api/v1/reports/sales': { query: reportQuery },
    'GET /api/v1/reports/payments': { query: reportQuery },
    ...keptAndDoomed('/api/v1/subscription_plans/{id}', shop.plan, shop.doomedPlan),
    'GET /api/v1/subscribers': { query: `subscription_plan_id=${shop.plan}` },
    ...keptAndDoomed('/api/v1/subscribers/{id}', shop.subscriber),
    'PATCH /api/v1/subscribers/{id}/period': { params: { id: shop.subscriber }, body: { active_until: new Date(Date.now() + 60 * 86_400_000).toISOString() } },
    'PATCH /api/v1/configuration/club': { body: { webhook_url: 'https://club.example.com/walk' } },
    'POST /api/v1/configuration/club/products': { body: { product_ids: [shop.product] } },
    'DELETE /api/v1/configuration/club/products/{product_id}': { params: { product_id: shop.clubProduct } },
    'POST /api/v1/configuration/club/deliveries/{delivery_id}/redeliver': { params: { delivery_id: shop.clubDelivery } },
    ...keptAndDoomed('/api/v1/configuration/email_sequences/{id}', shop.sequence),
    ...keptAndDoomed('/api/v1/configuration/order_statuses/{id}', shop.status),
    'POST /api/v1/configuration/order_statuses/{id}/test_email': { params: { id: shop.status }, body: { email: WALK_EMAILS.buyer } },
    'POST /api/v1/configuration/order_statuses/test_emails': { body: { email: WALK_EMAILS.buyer } },

    // The storefront and the public links.
    'GET /store/v1/{subdomain}/carts/{cart_id}': { params: { cart_id: f.storefront.cart } },
    'PATCH /store/v1/{subdomain}/carts/{cart_id}': { params: { cart_id: f.storefront.cart } },
    'POST /store/v1/{subdomain}/carts/{cart_id}/checkout': { params: { cart_id: f.storefront.cartToCheckOut } },
    'GET /store/v1/{subdomain}/orders/{uuid}': { params: { uuid: f.storefront.placedOrder } },
    'GET /store/v1/{subdomain}/orders/{uuid}/invoices/{invoice_id}': { params: { uuid: f.storefront.placedOrder, invoice_id: f.storefront.placedOrderInvoice } },
    'GET /shop_files/{file_id}': { params: { file_id: shop.photoFile } },
    'GET /downloads/{token}': { params: { token: shop.downloadToken } },
    'POST /webhooks/stripe/{shop_id}': { params: { shop_id: f.stripe.shop }, payload: f.stripe.event, headers: { 'stripe-signature': f.stripe.signature } },

    // The operator's platform routes (the target platform).
    'GET /admin/v1/platforms/{platform_id}/participants': { query: email(WALK_EMAILS.learner) },
    'GET /admin/v1/platforms/{platform_id}/orders/{order_id}': { params: { platform_id: t.platform.id, order_id: f.access.order } },
    'POST /admin/v1/platforms/{platform_id}/participants/reinvite': { body: { email: WALK_EMAILS.learner } },
    'POST /admin/v1/platforms/{platform_id}/participants/community_access': { body: { email: WALK_EMAILS.learner } },
    'POST /admin/v1/platforms/{platform_id}/lesson_completions': { body: { email: WALK_EMAILS.learner, lesson_id: f.operator.lesson } },
    'POST /admin/v1/platforms/{platform_id}/course_views': { body: { email: WALK_EMAILS.learner, course_id: t.targetCourse.id } },
    'POST /admin/v1/platforms/{platform_id}/quiz_results': { body: { email: WALK_EMAILS.learner, lesson_id: f.operator.lesson } },
    'GET /admin/v1/platforms/{platform_id}/participants/export': { query: email(WALK_EMAILS.learner) },
    'POST /admin/v1/platforms/{platform_id}/participants/erase': { body: { email: 'walk-erased-too@example.com' } },
    'GET /admin/v1/platforms/{platform_id}/participants/erasures/{erasure_id}': { params: { erasure_id: f.operator.erasure } },
    'DELETE /admin/v1/platforms/{platform_id}/configuration_keys/{key_id}': { params: { key_id: f.operator.doomedConfigurationKey } },

    // The operator's shop routes (the target shop).
    'GET /admin/v1/shops/{shop_id}/orders/{order_id}/effects': { params: { order_id: targetShop.order } },
    'POST /admin/v1/shops/{shop_id}/orders': { body: { email: WALK_EMAILS.buyer, items: [{ product_id: targetShop.product }] } },
    'PATCH /admin/v1/shops/{shop_id}/orders/{order_id}': { params: { order_id: targetShop.order }, body: { tracking_number: 'WALK-1' } },
    'POST /admin/v1/shops/{shop_id}/orders/{order_id}/notes': { params: { order_id: targetShop.order } },
    'POST /admin/v1/shops/{shop_id}/orders/{order_id}/payment': { params: { shop_id: f.stripe.shop, order_id: f.stripe.order } },
    'POST /admin/v1/shops/{shop_id}/webhooks': { body: newBody.shopWebhook() },
    'GET /admin/v1/shops/{shop_id}/webhooks/{id}/deliveries': { params: { id: targetShop.webhook } },
    'POST /admin/v1/shops/{shop_id}/webhooks/{id}/deliveries/{delivery_id}/redeliver': { params: { id: targetShop.webhook, delivery_id: targetShop.delivery } },
    'DELETE /admin/v1/shops/{shop_id}/webhooks/{id}': { params: { id: targetShop.doomedWebhook } },
    'POST /admin/v1/shops/{shop_id}/club/deliveries/{delivery_id}/redeliver': { params: { delivery_id: targetShop.clubDelivery } },
    'GET /admin/v1/shops/{shop_id}/subscribers/{subscriber_id}/billing': { params: { subscriber_id: targetShop.subscriber } },
    'PUT /admin/v1/shops/{shop_id}/subscription_plans/{plan_id}/emails/{kind}': { params: { plan_id: targetShop.plan, kind: 'activation' } },
    'PUT /admin/v1/shops/{shop_id}/course_platform': { body: { platform_id: t.target.id } },
    'PUT /admin/v1/shops/{shop_id}/integrations/analytics': { body: { measurement_id: 'G-WALK1234', api_secret: 'walk-secret-1234' } },
    'PUT /admin/v1/shops/{shop_id}/integrations/marketing': { body: { api_key: '0123456789abcdef0123456789abcdef-us21', list_id: 'walk1' } },
    'POST /admin/v1/shops/{shop_id}/discount_code_pools': { body: newBody.pool() },
    'POST /admin/v1/shops/{shop_id}/newsletter_subscribers': { body: { email: 'walk-newsletter@example.com' } },
    'GET /admin/v1/shops/{shop_id}/customers/export': { query: email(WALK_EMAILS.buyer) },
    'POST /admin/v1/shops/{shop_id}/customers/erase': { body: { email: 'walk-erased-too@example.com' } },
    'GET /admin/v1/shops/{shop_id}/customers/erasures/{erasure_id}': { params: { erasure_id: f.operator.shopErasure } },
    'DELETE /admin/v1/shops/{shop_id}/api_keys/{key_id}': { params: { key_id: f.operator.doomedApiKey } },
    'PATCH /admin/v1/shops/{shop_id}/delivery_types/{id}': { params: { id: targetShop.deliveryType }, body: { default_price: '6.00' } },
    'PATCH /admin/v1/shops/{shop_id}/payment_types/{id}': { params: { id: targetShop.paymentType }, body: { default_price: '1.00' } },
    'PATCH /admin/v1/shops/{shop_id}/product_categories/{id}': { params: { id: targetShop.category }, body: { name: 'Walk category 2' } },
    'DELETE /admin/v1/shops/{shop_id}/product_categories/{id}': { params: { id: targetShop.doomedCategory } },
    'PATCH /admin/v1/shops/{shop_id}/senders/{id}': { params: { id: targetShop.sender }, body: { name: 'Walk 2' } },
    'DELETE /admin/v1/shops/{shop_id}/senders/{id}': { params: { id: targetShop.doomedSender } },
    'PATCH /admin/v1/shops/{shop_id}/order_statuses/{id}': { params: { id: targetShop.status }, body: { name: 'Walk status 2' } },
    'DELETE /admin/v1/shops/{shop_id}/order_statuses/{id}': { params: { id: targetShop.doomedStatus } },
    'DELETE /admin/v1/shops/{shop_id}/email_sequences/{id}': { params: { id: targetShop.doomedSequence } },
  };
}
