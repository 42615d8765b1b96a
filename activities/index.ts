import type { ActivityDeps } from './shared/deps.ts';
import { audiobookAccessActivities } from './access/audiobook-access.ts';
import { courseAccessActivities } from './access/course-access.ts';
import { grantActivities } from './access/grants.ts';
import { courseMailActivities } from './access/course-mails.ts';
import { mailDeliveryActivities } from './mail/delivery.ts';
import { participantActivities } from './access/participants.ts';
import { progressEventActivities } from './access/progress-events.ts';
import { orderEffectActivities } from './shop/order-effects.ts';
import { mailSequenceActivities } from './shop/mail-sequences.ts';
import { clubWebhookActivities } from './shop/club-webhook.ts';
import { automaticStatusActivities } from './shop/automatic-status.ts';
import { statusTestMailActivities } from './shop/status-test-mails.ts';
import { shopCourseAccessActivities } from './shop/course-access.ts';
import { clearingStepActivities } from './shop/clearing-transaction.ts';
import { clearingOutsideActivities } from './shop/clearing-outside.ts';
import { timeLimitedDiscountActivities } from './shop/time-limited-discount.ts';
import { subscriberRenewalActivities } from './shop/subscriber-renewal.ts';
import { cartCleanupActivities } from './shop/cart-cleanup.ts';
import { webhookActivities } from './webhooks/delivery.ts';
import { shopWebhookActivities } from './webhooks/shop.ts';
import { personalDataActivities } from './shared/personal-data.ts';
import { idempotencyKeyCleanupActivities } from './shared/idempotency-key-cleanup.ts';

export type { ActivityDeps } from './shared/deps.ts';

/** Every activity the worker registers, built once from real dependencies (or fakes in tests). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...participantActivities(deps),
    ...webhookActivities(deps),
    ...shopWebhookActivities(deps),
    ...clubWebhookActivities(deps),
    ...progressEventActivities(deps),
    ...courseAccessActivities(deps),
    ...grantActivities(deps),
    ...audiobookAccessActivities(deps),
    ...courseMailActivities(deps),
    ...mailDeliveryActivities(deps),
    ...orderEffectActivities(deps),
    ...mailSequenceActivities(deps),
    ...automaticStatusActivities(deps),
    ...statusTestMailActivities(deps),
    ...shopCourseAccessActivities(deps),
    ...clearingStepActivities(deps),
    ...clearingOutsideActivities(deps),
    ...timeLimitedDiscountActivities(deps),
    ...subscriberRenewalActivities(deps),
    ...cartCleanupActivities(deps),
    ...personalDataActivities(deps),
    ...idempotencyKeyCleanupActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
