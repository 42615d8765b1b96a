import type { EntityManager } from '@mikro-orm/postgresql';
import { CLUB_WEBHOOK_TABLES, clubAttemptsOf, clubDeliveryPage, findClub, findClubDelivery } from '../../../db/repositories/shop/club.ts';
import { DELIVERIES_PER_PAGE } from '../../../domain/shared/webhooks.ts';
import { CLUB_WEBHOOK_EVENT } from '../../../domain/shop/club-rules.ts';
import { pageMeta, pageWindow } from '../../shared/pagination.ts';
import { redeliver } from '../../shared/redelivery.ts';
import type { WorkflowStarter } from '../../shared/workflow-starts/index.ts';
import { orderDeliveryReply, orderDeliveryViews } from './delivery-views.ts';

/**
 * The club webhook's delivery history and its redelivery, as the shop (`/api/v1/configuration/club/
 * deliveries`) and the operator (`/admin/v1/shops/:shop_id/club/deliveries`) read and use them. The
 * entity manager is scoped to the shop.
 */
export const ClubDeliveryReply = orderDeliveryReply([CLUB_WEBHOOK_EVENT]);

export const CLUB_DELIVERIES_DOC = `The club webhook's deliveries (one per order and status), ${DELIVERIES_PER_PAGE} a page, newest first, each with its attempts (newest first): time, HTTP status, duration, error (a refused address is a \`failed\` attempt without a status, with the reason).`;

export const CLUB_REDELIVER_DOC =
  "Sends one club webhook delivery again, now, as one attempt (no retries), with the same body and `webhook-id`, as the platform's redelivery. 202 with the delivery (`pending` until the attempt is made; its history then shows the attempt with `manual: true`, and the order's `club_webhook` effect says what happened). 409 while the delivery is still pending or when the club integration is switched off; 404 for a delivery that is not the shop's.";

export async function clubDeliveriesPage(em: EntityManager, pageNumber: number) {
  const page = { page: pageNumber, per_page: DELIVERIES_PER_PAGE };
  const [deliveries, total] = await clubDeliveryPage(em, pageWindow(page));
  const attempts = await clubAttemptsOf(em, deliveries.map((d) => d.id));
  return { data: orderDeliveryViews(deliveries, attempts, (d) => d.order.id), meta: pageMeta(page, total) };
}

/** Redelivers one of the shop's club deliveries (api/shared/redelivery.ts); the delivery as it is after the claim. */
export async function redeliverClubDelivery(em: EntityManager, workflows: WorkflowStarter, shopId: string, deliveryId: string) {
  const club = await findClub(em, shopId);
  return redeliver(em, workflows, {
    delivery: await findClubDelivery(em, shopId, deliveryId),
    what: 'club webhook delivery',
    tables: CLUB_WEBHOOK_TABLES,
    tenantId: shopId,
    webhook: { active: club?.active ?? false, deleted: club === null, name: 'the club integration' },
    record: (tx, delivery, redelivery) => workflows.shop.redeliverClubWebhook(tx, { shopId, deliveryId: delivery.id, orderId: delivery.order.id, statusId: delivery.orderStatusId, redelivery }),
    view: async (delivery) => orderDeliveryViews([delivery], await clubAttemptsOf(em, [delivery.id]), (d) => d.order.id)[0]!,
  });
}
