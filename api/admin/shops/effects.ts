import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findOrder } from '../../../db/repositories/shop/orders.ts';
import { latestShopAuditLogEntries } from '../../../db/repositories/shop/audit-log.ts';
import { listOrderEffects } from '../../../db/repositories/shop/order-effects.ts';
import { latestShopMails } from '../../../db/repositories/shop/shop-mails.ts';
import { ORDER_EFFECTS } from '../../../domain/shop/effects.ts';
import { auditLogRoute } from '../audit-log-route.ts';
import { ErrorBody, data } from '../../shared/schemas.ts';
import { notFound } from '../../shared/errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

const OrderEffectParams = ShopParams.extend({ order_id: z.coerce.number().int().positive().max(2_147_483_647) });

const EffectReply = z.object({
  effect: z.enum(ORDER_EFFECTS),
  /** The transition that ran it: `placed` (placing at New), `clear`, `clear:paid` (the Paid status the clearing set) or `status:<change id>`. */
  source: z.string(),
  status: z.enum(['done', 'failed', 'skipped']),
  detail: z.string(),
  at: z.string(),
});
const ShopMailReply = z.object({ to: z.string(), subject: z.string(), html: z.string(), kind: z.string(), sent_at: z.string() });

/** What happened to a shop's orders, mail and configuration: the order effect log, the mail log (DESIGN.md section 8) and the audit log. */
export const shopEffectAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/shops/:shop_id/orders/:order_id/effects',
    { schema: { operationId: 'admin.shops.orders.effects.list', summary: 'Lists an order\'s effects', description: "The order's effect log, oldest first; 404 for an order of another shop.", params: OrderEffectParams, response: { 200: data(z.array(EffectReply)), 404: ErrorBody } } },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      if (!(await findOrder(request.em, request.params.order_id))) throw notFound('order');
      const rows = await listOrderEffects(request.em, shop.id, request.params.order_id);
      return { data: rows.map((r) => ({ effect: r.effect, source: r.source, status: r.status, detail: r.detail, at: new Date(r.at).toISOString() })) };
    },
  );

  app.get(
    '/shops/:shop_id/emails',
    { schema: { operationId: 'admin.shops.emails.list', summary: 'Lists the shop\'s mail log', params: ShopParams, querystring: z.object({ to: z.string().max(254).optional() }), response: { 200: data(z.array(ShopMailReply)), 404: ErrorBody } } },
    async (request) => {
      await shopOf(request.em, request.params.shop_id);
      const to = request.query.to?.trim().toLowerCase();
      const mails = await latestShopMails(request.em, to);
      return { data: mails.map((m) => ({ to: m.to, subject: m.subject, html: m.html, kind: m.kind, sent_at: m.sentAt.toISOString() })) };
    },
  );

  auditLogRoute(app, {
    path: '/shops/:shop_id/audit_log',
    operationId: 'admin.shops.audit_log.list',
    summary: 'Lists the shop\'s configuration audit log',
    description: 'Configuration requests of the shop (club, order statuses, mail sequences), refused ones included, newest first (at most 1000).',
    params: ShopParams,
    read: async (em, params) => {
      await shopOf(em, params.shop_id);
      return latestShopAuditLogEntries(em);
    },
  });
};
