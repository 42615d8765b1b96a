/** Schema pieces the shop's product sets, upsell groups, subscription plans and subscribers share. */
import { z } from 'zod';

const NO_NUL = 'must not contain NUL characters';

/** Text of at most `max` characters without NUL (PostgreSQL refuses it in text columns). */
export const text = (max: number) => z.string().max(max).refine((value) => !value.includes('\u0000'), NO_NUL);

/** A row id: a positive int4. */
export const rowId = z.number().int().positive().max(2_147_483_647);

/** A query flag: `true` or `false`. */
export const boolText = z.enum(['true', 'false']).transform((value) => value === 'true');

/** A row id in a query string; an empty value (`?x=`) counts as not sent. */
export const queryRowId = z.union([z.literal('').transform(() => undefined), z.coerce.number().int().positive().max(2_147_483_647)]);

/** A path id: any text; whatever is not an id of the shop (malformed, too long) is a 404 (`pathId`). */
export const PathParams = z.object({ id: z.string().describe('the id') });
