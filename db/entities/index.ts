export * from './access/platform.ts';
export * from './access/course.ts';
export * from './access/audiobook.ts';
export * from './access/participant.ts';
export * from './shared/mail-log.ts';
export * from './access/mail-delivery.ts';
export * from './access/configuration.ts';
export * from './access/order.ts';
export * from './shared/domain-event.ts';
export * from './shared/webhook.ts';
export * from './access/quiz-result.ts';
export * from './shared/personal-data.ts';
export * from './shared/idempotency-key.ts';
export * from './shared/pending-workflow-start.ts';
import { Audiobook } from './access/audiobook.ts';
import { Course, Lesson, Section } from './access/course.ts';
import { MailLogEntry } from './shared/mail-log.ts';
import { MailDeliveryProvider } from './access/mail-delivery.ts';
import { configurationEntities } from './access/configuration.ts';
import { AccessSource, AudiobookAccess, Enrolment, Participant } from './access/participant.ts';
import { DomainEvent } from './shared/domain-event.ts';
import { webhookEntities } from './shared/webhook.ts';
import { QuizResult } from './access/quiz-result.ts';
import { PersonalDataErasure, PersonalDataSalt } from './shared/personal-data.ts';
import { IdempotencyKey } from './shared/idempotency-key.ts';
import { PendingWorkflowStart } from './shared/pending-workflow-start.ts';
import { AccessOrder } from './access/order.ts';
import { shopEntities } from './shop/index.ts';
import { Platform, PlatformApiKey } from './access/platform.ts';

import { AccessCommandPerson } from './access/command-person.ts';

export const entities = [
  Platform, PlatformApiKey, Course, Section, Lesson, Audiobook, Participant, Enrolment, AudiobookAccess, MailLogEntry,
  AccessSource, AccessOrder, DomainEvent,
  ...configurationEntities,
  ...webhookEntities,
  QuizResult,
  MailDeliveryProvider,
  ...shopEntities,
  PersonalDataErasure, PersonalDataSalt,
  IdempotencyKey,
  PendingWorkflowStart,
  AccessCommandPerson,
];
