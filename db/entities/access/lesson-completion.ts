import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantFilters } from '../../tenant.ts';
import { Course, Lesson } from './course.ts';
import { Participant } from './participant.ts';
import { Platform } from './platform.ts';

/** A participant's completed lesson (the learner app's progress); recorded once. */
export const LessonCompletion = defineEntity({
  name: 'LessonCompletion',
  tableName: 'lesson_completions',
  filters: tenantFilters,
  uniques: [{ properties: ['participant', 'lesson'] }],
  indexes: [{ properties: ['lesson'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    participant: () => p.manyToOne(Participant).ref(),
    lesson: () => p.manyToOne(Lesson).ref(),
    course: () => p.manyToOne(Course).ref(),
    completedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ILessonCompletion = InferEntity<typeof LessonCompletion>;
