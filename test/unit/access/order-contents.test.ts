import { describe, expect, it } from 'vitest';
import { isStaleGrant, isStaleRevoke } from '../../../domain/access/access-commands.ts';
import { OrderInput, orderedCourses } from '../../../domain/access/order-contents.ts';

const A = '6f1c1d1e-0000-4000-8000-00000000000a';
const B = '6f1c1d1e-0000-4000-8000-00000000000b';
const C = '6f1c1d1e-0000-4000-8000-00000000000c';

const items = (contents: unknown[]) => OrderInput.parse({ email: 'a@b.co', external_id: 'x', ordered_contents: contents }).ordered_contents;

describe('order rules', () => {
  it('rule 1: the granted set is the union of course_ids and courses', () => {
    expect(orderedCourses(items([{ course_ids: [A], courses: [{ id: B, access_level: 1 }] }]))).toEqual([
      { courseId: A, accessLevel: 0 },
      { courseId: B, accessLevel: 1 },
    ]);
  });

  it('rule 2: a course in both takes the level from courses (also when lower)', () => {
    expect(orderedCourses(items([{ course_ids: [A], courses: [{ id: A, access_level: 1 }] }]))).toEqual([{ courseId: A, accessLevel: 1 }]);
  });

  it('rule 3: a courses entry without access_level means 0', () => {
    expect(orderedCourses(items([{ courses: [{ id: C }, { id: B, access_level: null }] }]))).toEqual([
      { courseId: C, accessLevel: 0 },
      { courseId: B, accessLevel: 0 },
    ]);
  });

  it('rule 4: course_ids alone grants level 0', () => {
    expect(orderedCourses(items([{ course_ids: [A, B] }]))).toEqual([
      { courseId: A, accessLevel: 0 },
      { courseId: B, accessLevel: 0 },
    ]);
  });

  it('across lines, the highest level asked for a course wins', () => {
    expect(orderedCourses(items([{ courses: [{ id: A, access_level: 1 }] }, { course_ids: [A] }]))).toEqual([{ courseId: A, accessLevel: 1 }]);
  });

  it('keeps file_keys as sent, unknown members included', () => {
    const fileKeys = [{ key: 'k1', name: 'Book', uri: 's3://b/k1', chat: { id: 5 }, extra: true }];
    expect(items([{ product_id: 9, file_keys: fileKeys }])[0]).toEqual({ product_id: '9', file_keys: fileKeys });
  });

  it.each([
    ['no email', { external_id: 'x', ordered_contents: [{}] }, 'email'],
    ['a bad email', { email: 'x', external_id: 'x', ordered_contents: [{}] }, 'email'],
    ['no external_id', { email: 'a@b.co', ordered_contents: [{}] }, 'external_id'],
    ['an empty external_id', { email: 'a@b.co', external_id: ' ', ordered_contents: [{}] }, 'external_id'],
    ['no ordered_contents', { email: 'a@b.co', external_id: 'x' }, 'ordered_contents'],
    ['ordered_contents not a list', { email: 'a@b.co', external_id: 'x', ordered_contents: {} }, 'ordered_contents'],
    ['an empty ordered_contents', { email: 'a@b.co', external_id: 'x', ordered_contents: [] }, 'ordered_contents'],
    ['a malformed course id', { email: 'a@b.co', external_id: 'x', ordered_contents: [{ course_ids: ['nope'] }] }, 'ordered_contents'],
    ['a level outside 0..1', { email: 'a@b.co', external_id: 'x', ordered_contents: [{ courses: [{ id: A, access_level: 2 }] }] }, 'ordered_contents'],
  ])('rejects %s', (_label, order, field) => {
    const result = OrderInput.safeParse(order);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path[0]).toBe(field);
  });
});

describe('ordering of racing grant and revoke commands', () => {
  it('a grant older than the last revoke is stale, a newer one is not', () => {
    expect(isStaleGrant(4, { grantedSeq: 0, revokedSeq: 5 })).toBe(true);
    expect(isStaleGrant(6, { grantedSeq: 0, revokedSeq: 5 })).toBe(false);
  });
  it('a revoke older than the last grant is stale, a newer one is not', () => {
    expect(isStaleRevoke(4, { grantedSeq: 5, revokedSeq: 0 })).toBe(true);
    expect(isStaleRevoke(6, { grantedSeq: 5, revokedSeq: 0 })).toBe(false);
  });
  it('grants never make each other stale (levels merge)', () => {
    expect(isStaleGrant(1, { grantedSeq: 9, revokedSeq: 0 })).toBe(false);
  });
});
