import { z } from 'zod';
import { discountCodeText, discountSettingsFields } from '../discount-codes/schemas.ts';

/** The operator's pool: name, mode, its codes and the discount-code fields every code gets. */
const { name: _codeName, discount_type: discountType, ...otherSettings } = discountSettingsFields;

/** The operator's pool: name, mode, its codes and the discount-code fields every code gets (the codes' name is the pool's). */
export const CreatePoolBody = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(255),
    activate_on_draw: z.boolean().default(false),
    codes: z.array(discountCodeText).min(1).max(10_000),
    discount_type: discountType,
    ...z.object(otherSettings).partial().shape,
  })
  .meta({ description: 'A pool and its codes (each a discount code of `discount_type` with the other fields sent); with `activate_on_draw` the codes wait inactive for a draw.' });

export const PoolReply = z
  .object({
    id: z.number(),
    name: z.string(),
    activate_on_draw: z.boolean(),
    codes_total: z.number(),
    codes_drawn: z.number(),
    codes_remaining: z.number(),
    created_at: z.string(),
  })
  .meta({ id: 'ShopDiscountCodePool' });

export const PoolParams = z.object({ id: z.string().max(20).describe('the pool id') });

export const PoolListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  search: z.string().max(255).trim().optional().describe('part of the name, case-insensitive'),
});

/** Read loosely by the schema: a count or validity that is not a positive integer is a 400 (spec), not the interface's 422. */
export const DrawBody = z.unknown().meta({ type: 'object', properties: { count: { type: 'integer', minimum: 1 }, validity_hours: { type: 'integer', minimum: 1 } }, required: ['count', 'validity_hours'] });

const positiveInteger = z.number({ error: 'must be a positive integer' }).int('must be a positive integer').positive('must be a positive integer').max(Number.MAX_SAFE_INTEGER, 'is too large');
export const DrawInput = z.object({ count: positiveInteger, validity_hours: positiveInteger });

/** The longest validity window a draw gives: 100 years. */
export const MAX_VALIDITY_HOURS = 876_000;

export const DrawnCodeReply = z.object({ id: z.number(), code: z.string(), valid_from: z.string(), valid_until: z.string() }).meta({ id: 'ShopDrawnCode' });
