import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';
import { Course, Lesson } from './course.ts';
import { Participant } from './participant.ts';

/** A quiz result reported through the operator API (`quiz_passed` when passed). */
export const QuizResult = defineEntity({
  name: 'QuizResult',
  tableName: 'quiz_results',
  indexes: [{ properties: ['platform', 'participant'] }],
  ...platformOwned({
    participant: () => p.manyToOne(Participant).ref(),
    course: () => p.manyToOne(Course).ref(),
    lesson: () => p.manyToOne(Lesson).ref(),
    quizId: p.string(),
    score: p.double(),
    passed: p.boolean(),
    recordedAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IQuizResult = InferEntity<typeof QuizResult>;
