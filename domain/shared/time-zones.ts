/** Calendar days in a named time zone (IANA), without a date library: Intl gives the offsets. */

/** A shop's zone until its operator sets another (`shops.time_zone`). */
export const DEFAULT_TIME_ZONE = 'Europe/Warsaw';

/** The zone's offset from UTC at `instant`, in minutes (Warsaw in summer: +120). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant a calendar day (`YYYY-MM-DD`) starts in `timeZone`. */
export function startOfDayIn(day: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  // Twice: the offset at the guess may differ from the offset at the answer across a DST change.
  let guess = midnightUtc - zoneOffsetMinutes(new Date(midnightUtc), timeZone) * 60_000;
  guess = midnightUtc - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess);
}

/** The day after `day` (`YYYY-MM-DD`). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Whether `name` is an IANA zone name Intl knows (`Europe/Warsaw`, `UTC`). Intl alone would also
 * take an offset such as `+01:00`, which is no zone: its days never change with the seasons.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
