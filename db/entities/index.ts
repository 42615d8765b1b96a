export * from './platform.ts';
export * from './course.ts';
export * from './audiobook.ts';
export * from './participant.ts';
export * from './mail-log.ts';
export * from './order.ts';
export * from './domain-event.ts';
import { Audiobook } from './audiobook.ts';
import { Course, Lesson, Section } from './course.ts';
import { MailLogEntry } from './mail-log.ts';
import { AccessSource, AudiobookAccess, Enrolment, Participant } from './participant.ts';
import { DomainEvent } from './domain-event.ts';
import { Order } from './order.ts';
import { Platform, PlatformApiKey } from './platform.ts';

export const entities = [
  Platform, PlatformApiKey, Course, Section, Lesson, Audiobook, Participant, Enrolment, AudiobookAccess, MailLogEntry,
  AccessSource, Order, DomainEvent,
];
