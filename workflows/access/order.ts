import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import type { OrderedCourse } from '../../domain/access/order-contents.ts';
import { db } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/dispatch-events.ts';
import { afterCourseGrant } from './course-mails.ts';
import { onboardParticipant } from './onboard-participant.ts';

export interface FulfilOrderInput {
  platformId: string;
  orderId: string;
  email: string;
  /** The union of the order's `course_ids` and `courses` (domain/order-contents.ts). */
  courses: OrderedCourse[];
  seq: number;
}

/**
 * Order: none -> registered, "access granted for ordered contents" (spec: States and transitions).
 * Every course is granted with the order as its source, so a cancellation withdraws exactly this.
 * A cancellation that lands first makes the remaining grants no-ops and skips `order_fulfilled`.
 */
export async function fulfilOrder({ platformId, orderId, email, courses, seq }: FulfilOrderInput): Promise<{ events: RecordedDomainEvent[] }> {
  const onboarded = await onboardParticipant({ platformId, email, courseId: courses[0]?.courseId ?? null });
  const changes = await Promise.all(
    courses.map(({ courseId, accessLevel }) =>
      db.applyCourseGrant({ platformId, participant: onboarded.participant, courseId, accessLevel, source: { kind: 'order', order_id: orderId }, seq }),
    ),
  );
  const existingParticipant = !onboarded.created;
  await Promise.all(changes.map((c, i) => afterCourseGrant({ platformId, courseId: courses[i]!.courseId, participantId: onboarded.participant.id, existingParticipant, applied: c.courseMails === true })));
  const completed = await db.completeOrderFulfilment({ platformId, orderId, participant: onboarded.participant, courses });
  return withEventsDispatched(platformId, { events: [...onboarded.events, ...changes.flatMap((c) => c.events), ...completed.events] });
}

/** Order: registered -> cancelled, "related access withdrawn". */
export async function cancelOrder({ platformId, orderId }: { platformId: string; orderId: string }): Promise<{ events: RecordedDomainEvent[] }> {
  return withEventsDispatched(platformId, await db.withdrawOrderAccess({ platformId, orderId }));
}
