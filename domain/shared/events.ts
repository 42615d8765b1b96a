/**
 * Domain events recorded by the workflows (outbox: db/entities/domain-event.ts) and delivered to
 * webhooks. Each has a stable id; the payloads below are the `data` of a delivery.
 */
export const DOMAIN_EVENT_TYPES = [
  'lesson_completed',
  'course_completed',
  'quiz_passed',
  'user_registered',
  'access_granted',
  'access_revoked',
  'order_fulfilled',
  'participant_erased',
] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export interface ParticipantRef {
  id: string;
  email: string;
}

export type ResourceRef = { type: 'course'; id: string } | { type: 'audiobook'; id: string };

export type AccessSourceRef = { kind: 'direct' } | { kind: 'order'; order_id: string };

export interface NewDomainEvent {
  type: DomainEventType;
  payload: Record<string, unknown>;
}

/**
 * What an activity tells its workflow of a recorded event: which one and of what type. The payload
 * names the person, so it stays in the database and never enters a workflow's history (issue 41);
 * the delivery reads it from there.
 */
export interface RecordedDomainEvent {
  id: string;
  type: DomainEventType;
  occurredAt: string;
}

export const userRegistered = (participant: ParticipantRef & { name: string | null }): NewDomainEvent => ({
  type: 'user_registered',
  payload: { participant },
});

export const accessGranted = (p: {
  participant: ParticipantRef;
  resource: ResourceRef;
  accessLevel: number | null;
  source: AccessSourceRef;
}): NewDomainEvent => ({
  type: 'access_granted',
  payload: { participant: p.participant, resource: p.resource, access_level: p.accessLevel, source: p.source },
});

/** `access_level` is what remains: null when the access is gone, else the lowered level. */
export const accessRevoked = (p: {
  participant: ParticipantRef;
  resource: ResourceRef;
  accessLevel: number | null;
  source: AccessSourceRef;
}): NewDomainEvent => ({
  type: 'access_revoked',
  payload: { participant: p.participant, resource: p.resource, access_level: p.accessLevel, source: p.source },
});

/** `files`: the order's `file_keys`, one per key (domain/access/order-files.ts). */
export const orderFulfilled = (p: {
  order: { id: string; external_id: string; ordinal_number: string | null; gift_code: string | null };
  participant: ParticipantRef;
  courses: { id: string; access_level: number }[];
  files: { key: string; name: string | null; description: string | null; cover_key: string | null; uri: string | null }[];
}): NewDomainEvent => ({ type: 'order_fulfilled', payload: p });

export interface CourseRef {
  id: string;
  title: string;
}

/** A lesson completed (operator API `lesson_completions`, as the learner app reports it). */
export const lessonCompleted = (p: { participant: ParticipantRef; course: CourseRef; lesson: { id: string; title: string }; completedAt: string }): NewDomainEvent => ({
  type: 'lesson_completed',
  payload: { participant: p.participant, course: p.course, lesson: p.lesson, completed_at: p.completedAt },
});

/** Every lesson the participant's access level opens is completed; once per participant and course. */
export const courseCompleted = (p: { participant: ParticipantRef; course: CourseRef; completedAt: string }): NewDomainEvent => ({
  type: 'course_completed',
  payload: { participant: p.participant, course: p.course, completed_at: p.completedAt },
});

/** A passed quiz (operator API `quiz_results` with `passed: true`). */
export const quizPassed = (p: { participant: ParticipantRef; course: CourseRef; lesson: { id: string; title: string }; quizId: string; score: number; resultId: string }): NewDomainEvent => ({
  type: 'quiz_passed',
  payload: { participant: p.participant, course: p.course, lesson: p.lesson, quiz_id: p.quizId, score: p.score, result_id: p.resultId },
});

/**
 * The participant's data was erased on request (issue 29): receivers erase on their side. Carries
 * the participant's id (every earlier event named it) and the erasure's id (the e-mail's keyed
 * hash, the same for every erasure of that person), never the e-mail or the name.
 */
export const participantErased = (p: { participantId: string | null; erasureId: string }): NewDomainEvent => ({
  type: 'participant_erased',
  payload: { participant: { id: p.participantId }, erasure_id: p.erasureId },
});
