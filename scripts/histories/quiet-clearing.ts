import type { Activities } from '../../activities/index.ts';
import type { EffectOutcome } from '../../domain/shop/effects.ts';

const skipped = async (): Promise<EffectOutcome> => ({ status: 'skipped', detail: 'fake' });

/**
 * The effects of a clearing and of a status change (workflows/shop/clear-order.ts,
 * change-order-status.ts) with nothing to do: each skipped, no webhook, club, automatic status,
 * mail sequence or subscription. A workflow test spreads it first and then fakes the effect it
 * watches; the clearing runs some of these as local activities, and one the worker lacks fails
 * its workflow task. Shared by the history recorder (scenarios.ts) and the workflow tests.
 */
export const quietClearing: Partial<Activities> = {
  issueInvoice: skipped,
  createDownloadCodes: skipped,
  sendAnalyticsPurchase: skipped,
  tagCustomer: skipped,
  sendStatusMail: skipped,
  registerCourseAccessOrder: async () => ({ outcome: { status: 'skipped', detail: 'fake' } }),
  cancelCourseAccessOrder: async () => ({ outcome: { status: 'skipped', detail: 'fake' } }),
  recordOrderEffect: async () => undefined,
  shopWebhookTargets: async () => [],
  openClubWebhookDelivery: async () => ({ skipped: 'no club integration' }),
  planAutomaticStatuses: async () => [],
  orderMailSequences: async ({ orderId }) => ({ recipient: { hash: 'b'.repeat(64), row: { kind: 'order', orderId } }, statusId: 0, sequenceIds: [] }),
  activateSubscriptions: async () => ({ outcome: { status: 'skipped', detail: 'no product of a subscription plan' }, subscriberIds: [], endedIds: [] }),
  subscriptionEntryMailSequences: async () => [],
  // Status changes that stop no subscription (issue 22; test/e2e/shop/order-lifecycle.test.ts has a cancellation).
  stopOrderSubscriptions: async () => ({ outcome: null, endedIds: [] }),
  correctOrderInvoice: async () => null,
};
