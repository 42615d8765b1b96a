import type { ActivityDeps } from './deps.ts';
import { audiobookAccessActivities } from './audiobook-access.ts';
import { courseAccessActivities } from './course-access.ts';
import { courseMailActivities } from './course-mails.ts';
import { mailDeliveryActivities } from './mail-delivery.ts';
import { orderActivities } from './orders.ts';
import { participantActivities } from './participants.ts';
import { progressEventActivities } from './progress-events.ts';
import { webhookActivities } from './webhooks/delivery.ts';

export type { ActivityDeps } from './deps.ts';

/** Every activity the worker registers, built once from real dependencies (or fakes in tests). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...participantActivities(deps),
    ...webhookActivities(deps),
    ...progressEventActivities(deps),
    ...courseAccessActivities(deps),
    ...audiobookAccessActivities(deps),
    ...orderActivities(deps),
    ...courseMailActivities(deps),
    ...mailDeliveryActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
