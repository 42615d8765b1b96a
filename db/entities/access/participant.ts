import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';
import { Audiobook } from './audiobook.ts';
import { Course } from './course.ts';
import { AccessOrder } from './order.ts';

/** A learner of one platform, identified by the lower-cased e-mail. */
export const Participant = defineEntity({
  name: 'Participant',
  tableName: 'participants',
  uniques: [{ properties: ['platform', 'email'] }],
  ...platformOwned({
    email: p.string(),
    name: p.string().nullable(),
    invitedAt: p.datetime().nullable(),
    /** SHA-256 of the one-time login token sent in the invitation. */
    loginTokenHash: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    enrolments: () => p.oneToMany(Enrolment).mappedBy('participant'),
    audiobookAccesses: () => p.oneToMany(AudiobookAccess).mappedBy('participant'),
  }),
});
export type IParticipant = InferEntity<typeof Participant>;

/**
 * A participant's effective access to one course: active while any of its sources is, at the
 * highest level among them (domain/access-level.ts). `grantedSeq` and `revokedSeq` order grant and
 * revoke commands that race: a command older than the last one of the other kind is stale.
 */
export const Enrolment = defineEntity({
  name: 'Enrolment',
  indexes: [{ properties: ['course'] }],
  tableName: 'enrolments',
  uniques: [{ properties: ['participant', 'course'] }],
  ...platformOwned({
    participant: () => p.manyToOne(Participant).ref(),
    course: () => p.manyToOne(Course).ref(),
    accessLevel: p.smallint().default(0),
    active: p.boolean().default(true),
    startedAt: p.datetime().onCreate(() => new Date()),
    viewedAt: p.datetime().nullable(),
    grantedSeq: p.bigint('number').default(0),
    revokedSeq: p.bigint('number').default(0),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IEnrolment = InferEntity<typeof Enrolment>;

/**
 * Why a participant holds a course: a direct grant (`sourceKey` 'direct') or an order
 * (`order:<id>`). Cancelling an order revokes only its own sources.
 */
export const AccessSource = defineEntity({
  name: 'AccessSource',
  tableName: 'access_sources',
  uniques: [{ properties: ['participant', 'course', 'sourceKey'] }],
  indexes: [{ properties: ['order'] }],
  ...platformOwned({
    participant: () => p.manyToOne(Participant).ref(),
    course: () => p.manyToOne(Course).ref(),
    sourceKey: p.string(),
    order: () => p.manyToOne(AccessOrder).ref().nullable(),
    accessLevel: p.smallint().default(0),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IAccessSource = InferEntity<typeof AccessSource>;

export const AudiobookAccess = defineEntity({
  name: 'AudiobookAccess',
  indexes: [{ properties: ['audiobook'] }],
  tableName: 'audiobook_accesses',
  uniques: [{ properties: ['participant', 'audiobook'] }],
  ...platformOwned({
    participant: () => p.manyToOne(Participant).ref(),
    audiobook: () => p.manyToOne(Audiobook).ref(),
    active: p.boolean().default(true),
    grantedAt: p.datetime().onCreate(() => new Date()),
    grantedSeq: p.bigint('number').default(0),
    revokedSeq: p.bigint('number').default(0),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IAudiobookAccess = InferEntity<typeof AudiobookAccess>;
