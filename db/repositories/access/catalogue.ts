import type { EntityManager } from '@mikro-orm/postgresql';
import { insertRow } from '../shared/insert-row.ts';
import { ormPool } from '../shared/prepared.ts';
import { Audiobook, Course, Lesson, Section, type IAudiobook, type ICourse, type ILesson, type ISection } from '../../entities/index.ts';
import { arrayLiteral } from '../shared/array-literal.ts';
import type { Sql } from '../shared/pooled-transaction.ts';

export type CatalogueKind = 'courses' | 'audiobooks';

const ACTIVE_ITEMS_SQL: Record<CatalogueKind, string> = {
  courses: 'select id, title from courses where platform_id = $1 and active order by title, id',
  audiobooks: 'select id, title from audiobooks where platform_id = $1 and active order by title, id',
};

/**
 * A platform's active courses or audiobooks, by title. The hottest read of the access interface
 * (issue 17): one statement on a connection of the ORM's pool, as a named prepared statement
 * (parsed once per connection), without MikroORM's and knex's query path, which took about a
 * tenth of the request's time. Not for use inside a transaction (it takes its own connection).
 */
export async function activeCatalogueItems(em: EntityManager, platformId: string, kind: CatalogueKind): Promise<{ id: string; title: string }[]> {
  const pool = ormPool(em);
  const connection = await pool.acquireConnection();
  try {
    const result = await connection.query<{ id: string; title: string }>({ name: `access-active-${kind}`, text: ACTIVE_ITEMS_SQL[kind], values: [platformId] });
    return result.rows;
  } finally {
    pool.releaseConnection(connection);
  }
}

export type ItemKind = 'course' | 'audiobook';

const ITEM_TABLES: Record<ItemKind, string> = { course: 'courses', audiobook: 'audiobooks' };

/** The ids among `ids` (valid uuids) that are items of the platform, in one statement (a grant's path). */
export async function knownItemIds(em: Sql, platformId: string, kind: ItemKind, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: { id: string }[] = await em.execute(`select id from ${ITEM_TABLES[kind]} where platform_id = ? and id = any(?::uuid[])`, [platformId, arrayLiteral(ids)]);
  return new Set(rows.map((row) => row.id));
}

/** The course by id, or null. */
export function findCourse(em: EntityManager, courseId: string): Promise<ICourse | null> {
  return em.findOne(Course, courseId);
}

/** The course by (lower-cased) id or by slug, or null. */
export function findCourseByIdOrSlug(em: EntityManager, where: { id: string } | { slug: string }): Promise<ICourse | null> {
  return em.findOne(Course, where);
}

/** A course that exists, with its sections and their lessons. */
export function courseWithLessons(em: EntityManager, courseId: string): Promise<ICourse> {
  return em.findOneOrFail(Course, courseId, { populate: ['sections', 'sections.lessons'] });
}

/** The lesson by id with its section, or null. */
export function findLessonWithSection(em: EntityManager, lessonId: string): Promise<ILesson | null> {
  return em.findOne(Lesson, lessonId, { populate: ['section'] });
}

/** The lesson when it belongs to the course, or null. */
export function findLessonOfCourse(em: EntityManager, courseId: string, lessonId: string): Promise<ILesson | null> {
  return em.findOne(Lesson, { id: lessonId, section: { course: courseId } });
}

/** The sections of these courses with their lessons, by position. */
export function sectionsWithLessons(em: EntityManager, courseIds: readonly string[]): Promise<ISection[]> {
  if (courseIds.length === 0) return Promise.resolve([]);
  return em.find(Section, { course: { $in: [...courseIds] } }, { populate: ['lessons'], orderBy: { position: 'asc' } });
}

export interface NewCourse {
  title: string;
  slug: string;
  active: boolean;
  sections: { title: string; accessLevel: number; lessons: { title: string }[] }[];
}

/** A course with its sections and lessons (positions as listed), in one transaction; a taken slug throws the unique violation. */
export function createCourse(em: EntityManager, platformId: string, { title, slug, active, sections }: NewCourse): Promise<string> {
  return em.transactional(async (tx) => {
    const course = tx.create(Course, { platform: platformId, title, slug, active });
    sections.forEach((section, sectionIndex) => {
      const created = tx.create(Section, { platform: platformId, course, title: section.title, accessLevel: section.accessLevel, position: sectionIndex });
      section.lessons.forEach((lesson, lessonIndex) => {
        tx.create(Lesson, { platform: platformId, section: created, title: lesson.title, position: lessonIndex });
      });
    });
    await tx.flush();
    return course.id;
  });
}

/** Writes the fields given (an absent one stays). */
export async function updateCourse(em: EntityManager, course: ICourse, change: { title?: string | undefined; active?: boolean | undefined }): Promise<void> {
  if (change.title !== undefined) course.title = change.title;
  if (change.active !== undefined) course.active = change.active;
  await em.flush();
}

export function createAudiobook(em: EntityManager, platformId: string, values: { title: string; active: boolean }): Promise<IAudiobook> {
  return insertRow(em, Audiobook, { platform: platformId, title: values.title, active: values.active });
}
