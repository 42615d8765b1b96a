/**
 * Workflow ids carry the tenant first and then the business ids, so the Temporal UI finds every
 * command for a participant and item with `WorkflowId STARTS_WITH "platform/<id>/course/<course>/<email>/"`.
 * Access commands end with their sequence number (each request is its own command; the activities
 * are idempotent); order workflows are one-shot per order and reject a second start.
 */
export function platformPrefix(platformId: string): string {
  return `platform/${platformId}`;
}

export type AccessItem = { kind: 'course'; id: string } | { kind: 'audiobook'; id: string };

export function accessCommandWorkflowId(p: { platformId: string; item: AccessItem; email: string; command: 'grant' | 'revoke'; seq: number }): string {
  return `${platformPrefix(p.platformId)}/${p.item.kind}/${p.item.id}/${p.email}/${p.command}/${p.seq}`;
}

export function orderWorkflowId(p: { platformId: string; orderId: string; step: 'fulfil' | 'cancel' }): string {
  return `${platformPrefix(p.platformId)}/order/${p.orderId}/${p.step}`;
}

/** Course mails of one enrolment (reinvitation, mails timed from enrolment): one run per participant and course. */
export function courseMailsWorkflowId(p: { platformId: string; courseId: string; participantId: string }): string {
  return `${platformPrefix(p.platformId)}/course/${p.courseId}/participant/${p.participantId}/mails`;
}

/** The follow-up of one lesson completion: one run per participant and lesson. */
export function lessonCompletedWorkflowId(p: { platformId: string; lessonId: string; participantId: string }): string {
  return `${platformPrefix(p.platformId)}/lesson/${p.lessonId}/participant/${p.participantId}/completed`;
}

export function testMailWorkflowId(p: { platformId: string; slug: string; requestId: string }): string {
  return `${platformPrefix(p.platformId)}/mail-test/${p.slug}/${p.requestId}`;
}
