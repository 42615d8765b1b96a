import { z } from 'zod';
import { DEFAULT_ACCESS_LEVEL, accessLevelSchema, type AccessLevel } from './access-level.ts';
import { emailSchema } from '../shared/email.ts';

/** Largest batch one grant or revoke request may carry. */
export const MAX_BATCH_ENTRIES = 1000;

/** Ids compare lower-cased; any 8-4-4-4-12 hex id is accepted and then looked up. */
export const itemIdSchema = z.guid().transform((id) => id.toLowerCase());

export const CourseGrantEntry = z.object({
  course_id: itemIdSchema,
  email: emailSchema,
  name: z.string().trim().max(255).nullish(),
  access_level: accessLevelSchema.default(DEFAULT_ACCESS_LEVEL),
});
export type CourseGrantEntry = z.output<typeof CourseGrantEntry>;

export const AudiobookGrantEntry = z.object({
  audiobook_id: itemIdSchema,
  email: emailSchema,
  name: z.string().trim().max(255).nullish(),
});
export type AudiobookGrantEntry = z.output<typeof AudiobookGrantEntry>;

export const CourseRevokeEntry = z.object({ course_id: itemIdSchema, email: emailSchema });
export const AudiobookRevokeEntry = z.object({ audiobook_id: itemIdSchema, email: emailSchema });

export interface EntryProblem {
  index: number;
  field: string;
  message: string;
}

export interface BatchCheck<T> {
  valid: T[];
  /** The entries exactly as sent, for `invalid_subscriptions`. */
  invalid: unknown[];
  problems: EntryProblem[];
}

/** The grant wrapper accepts one entry object or an array of them. */
export function entriesOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * Checks every entry of a batch: its shape, then that the referenced item is one of the account's
 * (`knownIds`). The batch is only processed when `invalid` is empty (spec: other valid entries are
 * then not processed either).
 */
export function checkBatch<S extends z.ZodType<Record<string, unknown>>>(
  entries: unknown[],
  schema: S,
  idField: keyof z.output<S> & string,
  knownIds: ReadonlySet<string>,
): BatchCheck<z.output<S>> {
  const result: BatchCheck<z.output<S>> = { valid: [], invalid: [], problems: [] };
  entries.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    const problems: EntryProblem[] = parsed.success
      ? knownIds.has(String(parsed.data[idField]))
        ? []
        : [{ index, field: idField, message: 'unknown for this account' }]
      : parsed.error.issues.map((issue) => ({ index, field: issue.path.join('.') || 'entry', message: issue.message }));
    if (problems.length > 0 || !parsed.success) {
      result.invalid.push(entry);
      result.problems.push(...problems);
    } else {
      result.valid.push(parsed.data);
    }
  });
  return result;
}

/** The uuid-shaped ids a batch refers to, to look them up in one query. */
export function referencedIds(entries: unknown[], idField: string): string[] {
  const ids = new Set<string>();
  for (const entry of entries) {
    const parsed = itemIdSchema.safeParse(typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[idField] : undefined);
    if (parsed.success) ids.add(parsed.data);
  }
  return [...ids];
}

export type { AccessLevel };
