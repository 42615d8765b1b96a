import type { AccessChangeOutcome } from '../../activities/access/course-access.ts';
import type { CourseGrantInput, GrantStep, Onboarding } from '../../activities/access/grants.ts';
import type { AccessLevel } from '../../domain/access/access-level.ts';
import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import { localDb } from '../shared/activity-proxies.ts';
import { startWebhookDeliveries } from '../shared/dispatch-events.ts';
import { deliverNowOrInBackground } from '../shared/mail-delivery.ts';
import { afterCourseGrant } from './course-mails.ts';

/** One course entry of `POST /api/courses/subscribe`: the grant step's input as it is. */
export type GrantCourseAccessInput = CourseGrantInput;

export interface GrantResult {
  participantId: string;
  invitationSent: boolean;
  outcome: AccessChangeOutcome;
  accessLevel: AccessLevel | null;
  events: RecordedDomainEvent[];
}

/**
 * Grant request: received -> queued -> applied (spec: States and transitions).
 * One local step applies the whole grant in one transaction (the participant created and invited
 * when absent, the enrolment created or its level raised: a level never falls through a grant);
 * then what is to be delivered is handed on: the invitation, the course mails, the webhooks.
 */
export async function grantCourseAccess(input: GrantCourseAccessInput): Promise<GrantResult> {
  const { platformId, courseId } = input;
  const step = await localDb.grantCourse(input);
  await Promise.all([
    handOn(platformId, step),
    afterCourseGrant({ platformId, courseId, participantId: step.participantId, existingParticipant: !step.created, applied: step.courseMails === true }),
  ]);
  return grantResult(step);
}

/** The deliveries a grant step leaves: its invitation (one attempt now, retries in the background) and its events' webhooks. */
export async function handOn(platformId: string, step: Onboarding): Promise<void> {
  await Promise.all([deliverNowOrInBackground(platformId, step.invitationMailId), startWebhookDeliveries(platformId, step.webhookDeliveries)]);
}

export function grantResult(step: GrantStep): GrantResult {
  return { participantId: step.participantId, invitationSent: step.invitationSent, outcome: step.outcome, accessLevel: step.accessLevel, events: step.events };
}
