import { describe, expect, it } from 'vitest';
import { canSeeSection, isAccessLevel, mergeAccessLevel, visibleLessonIds } from '../../../domain/access/access-level.ts';

describe('access level rules', () => {
  it('rule 3: a level only rises', () => {
    expect(mergeAccessLevel(1, 0)).toBe(1);
    expect(mergeAccessLevel(0, 1)).toBe(1);
    expect(mergeAccessLevel(0, 0)).toBe(0);
    expect(mergeAccessLevel(null, 0)).toBe(0);
    expect(mergeAccessLevel(null, 1)).toBe(1);
  });

  it('rule 1: a section demanding a raised level is hidden below it', () => {
    expect(canSeeSection(0, 1)).toBe(false);
    expect(canSeeSection(1, 1)).toBe(true);
    expect(canSeeSection(0, 0)).toBe(true);
  });

  it('rule 4: raising the level adds the missing lessons and keeps the visible ones', () => {
    const sections = [
      { accessLevel: 0, lessonIds: ['a', 'b'] },
      { accessLevel: 1, lessonIds: ['c'] },
    ];
    expect(visibleLessonIds(0, sections)).toEqual(['a', 'b']);
    expect(visibleLessonIds(1, sections)).toEqual(['a', 'b', 'c']);
  });

  it('rule 7: only 0 and 1 are levels', () => {
    expect([0, 1].every(isAccessLevel)).toBe(true);
    expect([2, -1, 0.5, '1', null, undefined].some(isAccessLevel)).toBe(false);
  });
});
