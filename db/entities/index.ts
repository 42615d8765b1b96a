export * from './platform.ts';
export * from './course.ts';
export * from './audiobook.ts';
export * from './participant.ts';
export * from './mail-log.ts';
export * from './mail-delivery.ts';
export * from './configuration.ts';
export * from './order.ts';
export * from './domain-event.ts';
export * from './webhook.ts';
import { Audiobook } from './audiobook.ts';
import { Course, Lesson, Section } from './course.ts';
import { MailLogEntry } from './mail-log.ts';
import { MailDeliveryProvider } from './mail-delivery.ts';
import { configurationEntities } from './configuration.ts';
import { AccessSource, AudiobookAccess, Enrolment, Participant } from './participant.ts';
import { DomainEvent } from './domain-event.ts';
import { webhookEntities } from './webhook.ts';
import { Order } from './order.ts';
import { Platform, PlatformApiKey } from './platform.ts';

export const entities = [
  Platform, PlatformApiKey, Course, Section, Lesson, Audiobook, Participant, Enrolment, AudiobookAccess, MailLogEntry,
  AccessSource, Order, DomainEvent,
  ...configurationEntities,
  ...webhookEntities,
  MailDeliveryProvider,
];
