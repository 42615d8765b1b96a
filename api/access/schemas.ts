import { z } from 'zod';

/** Replies and bodies of the access interface (spec: access-service.md, Access interface). */
export const ListItem = z.object({ id: z.uuid(), title: z.string() });
export const CourseList = z.object({ courses: z.array(ListItem) });
export const AudiobookList = z.object({ audiobooks: z.array(ListItem) });

export const EntryProblem = z.object({ index: z.number().int(), field: z.string(), message: z.string() });

export const GrantQueuedReply = z
  .object({
    status: z.literal('queued'),
    queued: z.number().int(),
    workflow_ids: z.array(z.string()),
  })
  .describe('The grants are durably queued; each runs as a Temporal workflow with the id given.');

export const EnrollmentsQuery = z.object({ email: z.string().max(254).describe('required; empty gives an empty list') });
export const EnrollmentsReply = z.object({
  email: z.string(),
  courses: z.array(
    z.object({ id: z.uuid(), title: z.string(), started_at: z.iso.datetime(), viewed_at: z.iso.datetime().nullable() }),
  ),
});
