/**
 * PostgreSQL array literals, each bound as one value (`= any(?::int[])`, `unnest(?::numeric[])`):
 * a list of any length is one parameter, so the statement's text (and a prepared statement's name)
 * stays the same. Values are not deduplicated: parallel arrays of an `unnest` rely on that.
 */

/** Numbers as they are, text quoted (its quotes and backslashes escaped). */
export function arrayLiteral(values: readonly (number | string)[]): string {
  return `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
}

/** Whole ids (a fraction cut off, as the schemas' integers are). */
export const intArray = (ids: readonly number[]): string => arrayLiteral(ids.map((id) => Math.trunc(id)));
