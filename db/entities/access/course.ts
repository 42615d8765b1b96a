import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from './platform-owned.ts';

export const Course = defineEntity({
  name: 'Course',
  tableName: 'courses',
  uniques: [{ properties: ['platform', 'slug'] }],
  ...platformOwned({
    slug: p.string(),
    title: p.string(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    sections: () => p.oneToMany(Section).mappedBy('course').orderBy({ position: 'asc' }),
  }),
});
export type ICourse = InferEntity<typeof Course>;

/** A part of a course; `accessLevel` is the level a participant needs to see its lessons. */
export const Section = defineEntity({
  name: 'Section',
  indexes: [{ properties: ['course', 'position'] }],
  tableName: 'sections',
  ...platformOwned({
    course: () => p.manyToOne(Course).ref(),
    title: p.string(),
    accessLevel: p.smallint().default(0),
    position: p.integer(),
    lessons: () => p.oneToMany(Lesson).mappedBy('section').orderBy({ position: 'asc' }),
  }),
});
export type ISection = InferEntity<typeof Section>;

export const Lesson = defineEntity({
  name: 'Lesson',
  indexes: [{ properties: ['section', 'position'] }],
  tableName: 'lessons',
  ...platformOwned({
    section: () => p.manyToOne(Section).ref(),
    title: p.string(),
    position: p.integer(),
  }),
});
export type ILesson = InferEntity<typeof Lesson>;
