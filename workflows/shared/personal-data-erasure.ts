import { defineSignal, getExternalWorkflowHandle, setHandler, uuid4 } from '@temporalio/workflow';
import type { ErasureRef, PersonalDataActivities } from '../../activities/shared/personal-data.ts';
import type { ErasureCounts } from '../../domain/shared/personal-data.ts';
import { customerErasedDeliveryWorkflowId, subscriberWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { subscriberItemsChangedSignal } from '../shop/subscription-signals.ts';
import { startChildOnce } from './start-child-once.ts';
import { dispatchEvents } from './steps/dispatch-events.ts';
import type { ShopWebhookActivities } from '../../activities/webhooks/shop.ts';
import { activitiesOf } from './activities-of.ts';
import { DB_STEP, ERASURE_STEP } from './activity-profiles.ts';

const personalData = activitiesOf<PersonalDataActivities>(ERASURE_STEP);
const shopWebhooks = activitiesOf<ShopWebhookActivities>(DB_STEP);

/** A new request for the same person while the erasure runs (the API signals with start). */
export const erasureRequestedSignal = defineSignal('erasureRequested');

export interface ErasureResult {
  /** Rows changed per kind of data, added up over every run of this person's erasure. */
  counts: ErasureCounts;
}

/**
 * One person's erasure in one tenant (`shop/<s>/customer-erasure/<hash>`,
 * `platform/<p>/participant-erasure/<hash>`; issue 29). The input names the request row, never
 * the e-mail: each step opens the sealed address itself. Steps in the registry's order, one
 * activity per kind of data; then the shop's subscribers are woken to end and the integrators
 * told (only when this run changed something); the last step drops the sealed address. A
 * request that came during the run makes it go round again (the steps find nothing left or
 * what came since).
 */
export async function erasePersonalData(ref: ErasureRef): Promise<ErasureResult> {
  let requested = false;
  setHandler(erasureRequestedSignal, () => {
    requested = true;
  });
  for (;;) {
    requested = false;
    const { generation, kinds } = await personalData.beginErasure(ref);
    let changed = 0;
    for (const kind of kinds) changed += await personalData.erasePersonalDataKind({ ...ref, kind });
    if (ref.tenant === 'shop') await stopSubscribers(ref);
    if (changed > 0) await announce(ref, generation);
    const done = await personalData.completeErasure({ ...ref, generation });
    // A request after the last step raised the generation (not completed) or signalled: once more.
    if (done.completed && !requested) return { counts: done.counts };
  }
}

/** Each subscriber of the person is ended in the database already; its renewal workflow is woken to read that and end. */
async function stopSubscribers(ref: ErasureRef): Promise<void> {
  const ids = await personalData.erasedSubscriberIds(ref);
  await Promise.all(
    ids.map(async (subscriberId) => {
      try {
        await getExternalWorkflowHandle(subscriberWorkflowId({ shopId: ref.tenantId, subscriberId })).signal(subscriberItemsChangedSignal);
      } catch {
        // No renewal running for it (never activated, or already ended): nothing to wake.
      }
    }),
  );
}

/** `participant_erased` through the platform's event dispatch, or `customer_erased` to the shop's webhooks. */
async function announce(ref: ErasureRef, generation: number): Promise<void> {
  if (ref.tenant === 'platform') {
    await dispatchEvents(ref.tenantId, await personalData.recordParticipantErased({ ...ref, generation }));
    return;
  }
  const targets = await shopWebhooks.shopWebhookTargets({ shopId: ref.tenantId, type: 'customer_erased' });
  const eventId = uuid4();
  const occurredAt = new Date().toISOString();
  await Promise.all(
    targets.map(({ webhookId }) =>
      startChildOnce('deliverCustomerErased', {
        workflowId: customerErasedDeliveryWorkflowId({ shopId: ref.tenantId, webhookId, erasureId: ref.erasureId, generation }),
        args: [{ ...ref, webhookId, generation, eventId, occurredAt }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ),
  );
}

