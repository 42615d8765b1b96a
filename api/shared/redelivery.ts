import type { EntityManager } from '@mikro-orm/postgresql';
import { claimRedelivery, releaseRedelivery, type TenantDelivery } from '../../db/repositories/shared/webhook-deliveries.ts';
import { redeliveryRefusal, type WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { HttpError } from './errors.ts';

/**
 * A manual redelivery of a finished delivery of any table set (the platform's, a shop webhook's,
 * the club's): 409 when the rules refuse it; otherwise the delivery is claimed back to `pending`
 * in one statement (two concurrent requests: one claims, the other is a 409) and its one-attempt
 * workflow is started under the redelivery's number. A start that fails gives the claim back.
 */
export async function redeliver(
  em: EntityManager,
  delivery: TenantDelivery & { status: WebhookDeliveryStatus },
  webhook: { active: boolean; deleted: boolean; name?: string },
  start: (redelivery: number) => Promise<unknown>,
): Promise<void> {
  const refusal = redeliveryRefusal(webhook, delivery.status);
  if (refusal) throw new HttpError(409, refusal);
  const redelivery = await claimRedelivery(em, delivery, delivery.status);
  if (redelivery === undefined) throw new HttpError(409, 'the delivery is still pending');
  try {
    await start(redelivery);
  } catch (error) {
    await releaseRedelivery(em, delivery, delivery.status, redelivery);
    throw error;
  }
}
