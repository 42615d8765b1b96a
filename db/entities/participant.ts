import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantFilters } from '../tenant.ts';
import { Audiobook } from './audiobook.ts';
import { Course } from './course.ts';
import { Platform } from './platform.ts';

/** A learner of one platform, identified by the lower-cased e-mail. */
export const Participant = defineEntity({
  name: 'Participant',
  tableName: 'participants',
  filters: tenantFilters,
  uniques: [{ properties: ['platform', 'email'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    email: p.string(),
    name: p.string().nullable(),
    invitedAt: p.datetime().nullable(),
    /** SHA-256 of the one-time login token sent in the invitation. */
    loginTokenHash: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    enrolments: () => p.oneToMany(Enrolment).mappedBy('participant'),
    audiobookAccesses: () => p.oneToMany(AudiobookAccess).mappedBy('participant'),
  },
});
export type IParticipant = InferEntity<typeof Participant>;

/** A participant's access to one course. The level only rises (domain/access-level.ts). */
export const Enrolment = defineEntity({
  name: 'Enrolment',
  indexes: [{ properties: ['course'] }],
  tableName: 'enrolments',
  filters: tenantFilters,
  uniques: [{ properties: ['participant', 'course'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    participant: () => p.manyToOne(Participant).ref(),
    course: () => p.manyToOne(Course).ref(),
    accessLevel: p.smallint().default(0),
    active: p.boolean().default(true),
    startedAt: p.datetime().onCreate(() => new Date()),
    viewedAt: p.datetime().nullable(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IEnrolment = InferEntity<typeof Enrolment>;

export const AudiobookAccess = defineEntity({
  name: 'AudiobookAccess',
  indexes: [{ properties: ['audiobook'] }],
  tableName: 'audiobook_accesses',
  filters: tenantFilters,
  uniques: [{ properties: ['participant', 'audiobook'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    participant: () => p.manyToOne(Participant).ref(),
    audiobook: () => p.manyToOne(Audiobook).ref(),
    active: p.boolean().default(true),
    grantedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IAudiobookAccess = InferEntity<typeof AudiobookAccess>;
