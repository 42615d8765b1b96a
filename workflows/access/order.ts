import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import type { CancelOrderInput, FulfilOrderInput } from './contracts.ts';
import { db, localDb } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/dispatch-events.ts';
import { afterCourseGrant } from './course-mails.ts';
import { handOn } from './grant-course-access.ts';

export type { FulfilOrderInput };

/**
 * Order: none -> registered, "access granted for ordered contents" (spec: States and transitions),
 * in one local step (activities/access/grants.ts); then the invitation, the course mails and the
 * webhooks are handed on.
 */
export async function fulfilOrder(input: FulfilOrderInput): Promise<{ events: RecordedDomainEvent[] }> {
  const { platformId } = input;
  const step = await localDb.fulfilOrderAccess(input);
  const existingParticipant = !step.created;
  await Promise.all([
    handOn(platformId, step),
    ...step.courses.map(({ courseId, courseMails }) => afterCourseGrant({ platformId, courseId, participantId: step.participantId, existingParticipant, applied: courseMails })),
  ]);
  return { events: step.events };
}

/** Order: registered -> cancelled, "related access withdrawn". */
export async function cancelOrder({ platformId, orderId }: CancelOrderInput): Promise<{ events: RecordedDomainEvent[] }> {
  return withEventsDispatched(platformId, await db.withdrawOrderAccess({ platformId, orderId }));
}
