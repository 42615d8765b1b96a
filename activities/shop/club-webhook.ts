import { ApplicationFailure } from '@temporalio/activity';
import { paidStatusIdOnce } from '../../db/repositories/shop/step-reads.ts';
import { CLUB_WEBHOOK_TABLES, clubDeliveryOutcome, clubProducts, findClub, openClubDelivery } from '../../db/repositories/shop/club.ts';
import { CLUB_WEBHOOK_EVENT, clubDeliveryEffect, clubWebhookDecision, firesForAllProducts } from '../../domain/shop/club-rules.ts';
import type { EffectOutcome, EffectSource } from '../../domain/shop/effects.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';
import type { AttemptResult } from '../webhooks/attempt.ts';
import { attemptDepsFrom, attemptInActivity } from '../webhooks/delivery.ts';
import { orderWebhookPayload } from '../webhooks/shop.ts';

export interface OpenClubDeliveryInput {
  shopId: string;
  orderId: number;
  source: EffectSource;
  /** The status the transition reached; null for the clearing (the shop's Paid status). */
  statusId: number | null;
  eventId: string;
  occurredAt: string;
}

/** The club webhook is due (`deliveryId` to attempt, `host` for the effect log), or why not. */
export type ClubDeliveryOpening = { deliveryId: string; host: string; statusId: number } | { skipped: string };

/**
 * The club webhook's activities (workflows/shop/club-webhook.ts): deciding and opening the
 * delivery of an order at a status (once per order and status), then the platform's attempt on the
 * club's tables, with its signing, SSRF rules and retry schedule.
 */
export function clubWebhookActivities(activityDeps: ActivityDeps, db: ActivityDb = unitsOfWork(activityDeps.orm)) {
  const { orm } = activityDeps;
  const { reads: { orderFacts }, recordEffect } = db;
  const deps = attemptDepsFrom(activityDeps);

  return {
    /**
     * Opens the club webhook of the order at the reached status when the integration asks for it,
     * with the order as it is now. A status the order reached before (another transition opened
     * the delivery) is skipped; a repeat of the same transition finds its own delivery again.
     */
    async openClubWebhookDelivery(input: OpenClubDeliveryInput): Promise<ClubDeliveryOpening> {
      const { shopId, orderId, source } = input;
      const em = db.shopEm(shopId);
      const [club, facts] = await Promise.all([findClub(em, shopId), orderFacts(em, orderId)]);
      if (!facts) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
      const statusId = input.statusId ?? (await paidStatusIdOnce(db.reads, em, shopId));
      const products = club ? await clubProducts(em, shopId, club.id) : [];
      const settings = club && { active: club.active, orderStatusId: club.order_status_id, productIds: products.map((p) => p.id) };
      const decision = clubWebhookDecision(settings, statusId, facts.items.map((item) => item.productId ?? 0));
      if (!decision.fire) return { skipped: decision.reason };
      const delivery = await openClubDelivery(em, shopId, {
        clubId: club!.id,
        orderId,
        orderStatusId: statusId,
        source,
        eventId: input.eventId,
        type: CLUB_WEBHOOK_EVENT,
        occurredAt: new Date(input.occurredAt),
        payload: {
          ...orderWebhookPayload(facts.order, facts.items),
          club: {
            order_status_id: statusId,
            fires_for_all_products: firesForAllProducts(settings!.productIds),
            products: products.filter((p) => decision.matchedProductIds.includes(p.id)).map(({ id, name }) => ({ id, name })),
          },
        },
      });
      if (delivery.source !== source) return { skipped: `sent once per order and status: already at ${delivery.source}` };
      return { deliveryId: delivery.id, host: club!.host, statusId };
    },

    /** One attempt: the platform's, on the club's tables. */
    async attemptClubWebhookDelivery({ shopId, deliveryId, manual }: { shopId: string; deliveryId: string; manual?: boolean }): Promise<AttemptResult> {
      return attemptInActivity(deps, orm, { tables: CLUB_WEBHOOK_TABLES, tenantId: shopId, deliveryId, manual });
    },

    /**
     * Records in the order's effect log what happened to the club webhook once its delivery is over
     * (delivered, failed with the last attempt's reason, or not sent), over the `club_webhook` entry
     * of the transition that opened it.
     */
    async recordClubWebhookOutcome({ shopId, deliveryId }: { shopId: string; deliveryId: string }): Promise<EffectOutcome> {
      const em = db.shopEm(shopId);
      const row = await clubDeliveryOutcome(em, shopId, deliveryId);
      if (!row) throw ApplicationFailure.nonRetryable(`club webhook delivery ${deliveryId} not found`, 'DeliveryNotFound');
      const outcome = clubDeliveryEffect({ host: row.host, status: row.status, statusCode: row.status_code, error: row.error });
      await recordEffect(em, { shopId, orderId: row.order_id, source: row.source as EffectSource, effect: 'club_webhook' }, outcome, new Date());
      return outcome;
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<ClubWebhookActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ClubWebhookActivities = ReturnType<typeof clubWebhookActivities>;
