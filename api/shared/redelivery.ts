import type { EntityManager } from '@mikro-orm/postgresql';
import { claimRedelivery, reloadDelivery, type WebhookTables } from '../../db/repositories/shared/webhook-deliveries.ts';
import { redeliveryRefusal, type WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { HttpError, notFound } from './errors.ts';
import type { RecordedStart, WorkflowStarter } from './workflow-starts/index.ts';

export interface Redelivery<D, V> {
  /** The delivery the path names, found among the webhook's (null: 404 `<what> not found`). */
  delivery: D | null;
  what?: string;
  /** Its table set and tenant. */
  tables: WebhookTables;
  tenantId: string;
  /** The webhook (or the club integration, `name`) as the redelivery rules read it. */
  webhook: { active: boolean; deleted: boolean; name?: string };
  /** Records, in the claim's transaction `tx`, the start of the delivery's one-attempt workflow under the redelivery's number. */
  record(tx: EntityManager, delivery: D, redelivery: number): Promise<RecordedStart>;
  /** The reply's view of the delivery, read again after the claim. */
  view(delivery: D): Promise<V>;
}

/**
 * `POST .../deliveries/:id/redeliver` of any table set (the platform's, a shop webhook's, the
 * club's): 404 for no delivery, 409 when the rules refuse it; otherwise the delivery is claimed
 * back to `pending` in one statement (two concurrent requests: one claims, the other is a 409) and
 * the start of its one-attempt workflow under the redelivery's number is recorded in the same
 * transaction (the outbox: sent once committed, later when Temporal is down; the delivery stays
 * `pending` meanwhile). Answers the delivery as it is after the claim.
 */
export async function redeliver<D extends { id: string; status: WebhookDeliveryStatus }, V>(em: EntityManager, workflows: Pick<WorkflowStarter, 'startRecorded'>, r: Redelivery<D, V>): Promise<V> {
  const { delivery } = r;
  if (!delivery) throw notFound(r.what ?? 'delivery');
  const refusal = redeliveryRefusal(r.webhook, delivery.status);
  if (refusal) throw new HttpError(409, refusal);
  const ref = { tables: r.tables, tenantId: r.tenantId, deliveryId: delivery.id };
  const recorded = await em.transactional(async (tx) => {
    const redelivery = await claimRedelivery(tx, ref, delivery.status);
    return redelivery === undefined ? null : r.record(tx, delivery, redelivery);
  });
  if (!recorded) throw new HttpError(409, 'the delivery is still pending');
  await workflows.startRecorded(recorded);
  await reloadDelivery(em, delivery);
  return r.view(delivery);
}
