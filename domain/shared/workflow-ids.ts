/**
 * Workflow ids carry the tenant first and then the business ids, so the Temporal UI finds every
 * command for a person and item with `WorkflowId STARTS_WITH "platform/<id>/course/<course>/<person>/"`, the
 * person being the address's keyed hash (db personalEmailHash, docs/decisions/operability.md, issue 41 item 3;
 * commands accepted before that carry the address as sent).
 * Access commands end with their sequence number (each request is its own command; the activities
 * are idempotent); order workflows are one-shot per order and reject a second start.
 */
export function platformPrefix(platformId: string): string {
  return `platform/${platformId}`;
}

export type AccessItem = { kind: 'course'; id: string } | { kind: 'audiobook'; id: string };

export function accessCommandWorkflowId(p: { platformId: string; item: AccessItem; person: string; command: 'grant' | 'revoke'; seq: number }): string {
  return `${platformPrefix(p.platformId)}/${p.item.kind}/${p.item.id}/${p.person}/${p.command}/${p.seq}`;
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

/**
 * One login-link mail of an operator action (`user_reinvitation`: each request sends anew;
 * `community_access_granted`: request `once`, so a repeat joins the first).
 */
export function loginLinkMailWorkflowId(p: { platformId: string; participantId: string; template: string; requestId: string }): string {
  return `${platformPrefix(p.platformId)}/participant/${p.participantId}/${p.template}/${p.requestId}`;
}

/** One rollout of a timed course mail per change of the template. */
export function courseMailRolloutWorkflowId(p: { platformId: string; templateId: string; revision: string }): string {
  return `${platformPrefix(p.platformId)}/course-mail/${p.templateId}/rollout/${p.revision}`;
}

export function testMailWorkflowId(p: { platformId: string; slug: string; requestId: string }): string {
  return `${platformPrefix(p.platformId)}/mail-test/${p.slug}/${p.requestId}`;
}

/** The delivery of one recorded mail: one run per mail log id, so a repeated start joins it. */
export function mailDeliveryWorkflowId(p: { platformId: string; mailId: string }): string {
  return `${platformPrefix(p.platformId)}/mail/${p.mailId}/delivery`;
}

/** One delivery of one event to one webhook: a repeated start for the same pair is rejected. */
export function webhookDeliveryWorkflowId(p: { platformId: string; webhookId: string; eventId: string }): string {
  return `${platformPrefix(p.platformId)}/webhook/${p.webhookId}/event/${p.eventId}`;
}

/** The n-th manual redelivery of that pair (`POST .../deliveries/:id/redeliver`). */
export function webhookRedeliveryWorkflowId(p: { platformId: string; webhookId: string; eventId: string; redelivery: number }): string {
  return `${webhookDeliveryWorkflowId(p)}/redelivery/${p.redelivery}`;
}

/** The events of one reported quiz result. */
export function quizResultWorkflowId(p: { platformId: string; resultId: string }): string {
  return `${platformPrefix(p.platformId)}/quiz-result/${p.resultId}`;
}
