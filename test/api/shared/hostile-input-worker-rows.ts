/**
 * Rows of the hostile walk's fixtures (hostile-input-fixtures.ts) that only the worker makes: no
 * worker runs beside the walk, so they come from the worker's own activities and repositories,
 * called directly. Deliveries are made finished (one failed attempt), so an operator may redeliver them.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { grantActivities } from '../../../activities/access/grants.ts';
import { orderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { CLUB_WEBHOOK_TABLES, findClub, openClubDelivery } from '../../../db/repositories/shop/club.ts';
import { openShopDelivery } from '../../../db/repositories/shop/webhooks.ts';
import { openDelivery, PLATFORM_WEBHOOK_TABLES, recordAttempt, SHOP_WEBHOOK_TABLES, type WebhookTables } from '../../../db/repositories/shared/webhook-deliveries.ts';
import type { Orm } from '../../../db/orm.ts';
import { insertSubscriber } from '../../helpers/shop-subscribers.ts';
import { PLATFORM_URL_TEMPLATE } from '../../helpers/stack.ts';

const DAY = 86_400_000;

export function workerRows(orm: Orm) {
  const em = () => orm.em.fork();
  const grants = grantActivities({ orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE });

  async function fail(tables: WebhookTables, tenantId: string, webhookId: string, deliveryId: string): Promise<string> {
    const attempt = { at: new Date(), statusCode: 500, durationMs: 5, error: 'HTTP 500', manual: false };
    await recordAttempt(em(), { tables, tenantId, deliveryId, webhookId }, attempt, { status: 'failed', nextAttemptAt: null });
    return deliveryId;
  }

  return {
    /** The participant of `email`, enrolled in the course (the grant workflow's step); its events. */
    async enrol(platformId: string, courseId: string, email: string, accessLevel: 0 | 1 = 0) {
      return (await grants.grantCourse({ platformId, courseId, email, accessLevel, seq: 1 })).events;
    },

    /** A failed delivery of the platform's event to its webhook. */
    async failedPlatformDelivery(platformId: string, webhookId: string, eventId: string): Promise<string> {
      return fail(PLATFORM_WEBHOOK_TABLES, platformId, webhookId, (await openDelivery(em(), { platformId, webhookId, eventId }))!);
    },

    /** A failed delivery of the order's clearing to the shop's webhook. */
    async failedShopDelivery(shopId: string, webhookId: string, orderId: number): Promise<string> {
      const event = { eventId: randomUUID(), eventKey: `order/${orderId}/clear`, type: 'order_cleared' as const, occurredAt: new Date(), payload: { order: { id: orderId } } };
      return fail(SHOP_WEBHOOK_TABLES, shopId, webhookId, (await openShopDelivery(em(), shopId, webhookId, event))!);
    },

    /** A failed club webhook of the order (the shop's club integration exists). */
    async failedClubDelivery(shopId: string, orderId: number): Promise<string> {
      const club = (await findClub(em(), shopId))!;
      const event = { clubId: club.id, orderId, orderStatusId: club.order_status_id, source: 'clear', eventId: randomUUID(), type: 'club_order_status_reached', occurredAt: new Date(), payload: {} };
      return fail(CLUB_WEBHOOK_TABLES, shopId, club.id, (await openClubDelivery(em(), shopId, event)).id);
    },

    /** The download codes of a cleared order (the clearing effect's step). */
    async downloadCodes(shopId: string, orderId: number): Promise<void> {
      expect((await orderEffectActivities({ orm, platformUrlTemplate: '' }).createDownloadCodes({ shopId, orderId, source: 'clear' })).status).toBe('done');
    },

    /** The order's invoice (the clearing's effect, automatic invoicing switched on first); its id. */
    async invoice(shopId: string, orderId: number): Promise<number> {
      await orm.em.fork().execute('update shops set automatic_invoicing = true where id = ?', [shopId]);
      expect((await orderEffectActivities({ orm, platformUrlTemplate: '' }).issueInvoice({ shopId, orderId, source: 'clear' })).status).toBe('done');
      const [row] = await orm.em.fork().execute<{ id: number }[]>('select id from shop_invoices where order_id = ?', [orderId]);
      return Number(row!.id);
    },

    /** An active subscriber of the plan, in its first month (activation is the renewal workflow's). */
    activeSubscriber(shopId: string, planId: number): Promise<number> {
      return insertSubscriber(orm, shopId, { planId, periods: [{ startsAt: new Date(Date.now() - DAY), endsAt: new Date(Date.now() + 30 * DAY) }] });
    },
  };
}
