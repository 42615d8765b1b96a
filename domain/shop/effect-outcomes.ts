import { done, skipped, type EffectOutcome } from './effects.ts';
import type { ShopWebhookEvent } from './webhooks.ts';

/**
 * The effect-log outcomes of the effects handed to workflows of their own (deliveries, sequence
 * runs), written alike by the clearing's one step (activities/shop/clearing-step.ts) and the
 * per-effect steps (workflows/shop/steps/).
 */

/** A shop webhook's delivery started: provisional, its workflow records over it once it is over. */
export const shopDeliveryUnderWay = (type: ShopWebhookEvent, webhookId: string, host: string): EffectOutcome => done(`${type} delivery to webhook ${webhookId} (${host}) under way`);

export const noShopWebhookSubscribed = (type: ShopWebhookEvent): EffectOutcome => skipped(`no shop webhook subscribed to ${type}`);

/** The club webhook's delivery started (provisional, as a shop webhook's), or why it is not sent. */
export const clubDeliveryOpened = (opening: { host: string } | { skipped: string }): EffectOutcome =>
  'skipped' in opening ? skipped(opening.skipped) : done(`club webhook to ${opening.host} under way`);

/** The mail sequences an order's status starts for its buyer (not named: the outcome passes through workflow histories). */
export function orderSequencesStarted(sequenceIds: readonly number[]): EffectOutcome {
  return sequenceIds.length === 0 ? skipped('no mail sequence starts at this status for this order') : done(`sequences ${sequenceIds.join(', ')} started for the order's buyer`);
}
