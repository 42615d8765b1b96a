/** A Postgres `int[]` literal of these ids, each once (bound as one value: `= any(?::int[])`). */
export const intArray = (ids: readonly number[]): string => `{${[...new Set(ids.map((id) => Math.trunc(id)))].join(',')}}`;
