import { describe, expect, it } from 'vitest';
import { CourseGrantEntry, checkBatch, entriesOf, referencedIds } from '../../../domain/access/grant-entries.ts';

const course = '6f1c1d1e-0000-4000-8000-000000000001';
const other = '6f1c1d1e-0000-4000-8000-000000000002';
const known = new Set([course]);

describe('grant entries', () => {
  it('accepts one entry object or an array of them', () => {
    expect(entriesOf({ a: 1 })).toEqual([{ a: 1 }]);
    expect(entriesOf([{ a: 1 }, { a: 2 }])).toHaveLength(2);
  });

  it('rule 2: an omitted level is 0, and the e-mail is normalised', () => {
    const batch = checkBatch([{ course_id: course.toUpperCase(), email: ' Ann@Example.COM ' }], CourseGrantEntry, 'course_id', known);
    expect(batch.invalid).toEqual([]);
    expect(batch.valid).toEqual([{ course_id: course, email: 'ann@example.com', access_level: 0 }]);
  });

  it.each([
    ['an unknown course', { course_id: other, email: 'a@b.co' }, 'course_id'],
    ['a malformed course id', { course_id: 'nope', email: 'a@b.co' }, 'course_id'],
    ['a missing course id', { email: 'a@b.co' }, 'course_id'],
    ['an invalid e-mail', { course_id: course, email: 'not-an-email' }, 'email'],
    ['a missing e-mail', { course_id: course }, 'email'],
    ['level 2 (rule 7)', { course_id: course, email: 'a@b.co', access_level: 2 }, 'access_level'],
    ['level -1 (rule 7)', { course_id: course, email: 'a@b.co', access_level: -1 }, 'access_level'],
    ['level "1" as a string', { course_id: course, email: 'a@b.co', access_level: '1' }, 'access_level'],
    ['a name that is not a string', { course_id: course, email: 'a@b.co', name: 42 }, 'name'],
  ])('rejects %s and names the field', (_label, entry, field) => {
    const batch = checkBatch([entry], CourseGrantEntry, 'course_id', known);
    expect(batch.valid).toEqual([]);
    expect(batch.invalid).toEqual([entry]);
    expect(batch.problems.map((p) => p.field)).toContain(field);
  });

  it('lists only the invalid entries, as sent, with their index', () => {
    const bad = { course_id: course, email: 'x' };
    const batch = checkBatch([{ course_id: course, email: 'a@b.co' }, bad], CourseGrantEntry, 'course_id', known);
    expect(batch.invalid).toEqual([bad]);
    expect(batch.problems[0]?.index).toBe(1);
  });

  it('rejects entries that are not objects', () => {
    const batch = checkBatch([null, 'x', 3], CourseGrantEntry, 'course_id', known);
    expect(batch.invalid).toHaveLength(3);
  });

  it('collects the uuid-shaped ids to look up', () => {
    expect(referencedIds([{ course_id: course }, { course_id: 'x' }, null, { course_id: course }], 'course_id')).toEqual([course]);
  });
});
