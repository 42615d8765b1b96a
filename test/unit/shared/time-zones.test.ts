import { describe, expect, it } from 'vitest';
import { nextDay, startOfDayIn, zoneOffsetMinutes } from '../../../domain/shared/time-zones.ts';

describe('calendar days in a time zone', () => {
  it('knows Warsaw is UTC+1 in winter and UTC+2 in summer', () => {
    expect(zoneOffsetMinutes(new Date('2026-01-15T12:00:00Z'), 'Europe/Warsaw')).toBe(60);
    expect(zoneOffsetMinutes(new Date('2026-07-15T12:00:00Z'), 'Europe/Warsaw')).toBe(120);
  });

  it('starts a Warsaw day at 23:00 or 22:00 UTC the day before', () => {
    expect(startOfDayIn('2026-01-15', 'Europe/Warsaw').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDayIn('2026-07-15', 'Europe/Warsaw').toISOString()).toBe('2026-07-14T22:00:00.000Z');
  });

  it('starts the days around the DST changes right', () => {
    expect(startOfDayIn('2026-03-29', 'Europe/Warsaw').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayIn('2026-03-30', 'Europe/Warsaw').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDayIn('2026-10-25', 'Europe/Warsaw').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(startOfDayIn('2026-10-26', 'Europe/Warsaw').toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });

  it('is plain UTC midnight in UTC and steps over month ends', () => {
    expect(startOfDayIn('2026-02-28', 'UTC').toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});
