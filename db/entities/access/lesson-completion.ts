import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';
import { Course, Lesson } from './course.ts';
import { Participant } from './participant.ts';

/** A participant's completed lesson (the learner app's progress); recorded once. */
export const LessonCompletion = defineEntity({
  name: 'LessonCompletion',
  tableName: 'lesson_completions',
  uniques: [{ properties: ['participant', 'lesson'] }],
  indexes: [{ properties: ['lesson'] }],
  ...platformOwned({
    participant: () => p.manyToOne(Participant).ref(),
    lesson: () => p.manyToOne(Lesson).ref(),
    course: () => p.manyToOne(Course).ref(),
    completedAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type ILessonCompletion = InferEntity<typeof LessonCompletion>;
