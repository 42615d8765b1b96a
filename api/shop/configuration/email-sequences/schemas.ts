import { z } from 'zod';
import { MAX_OFFSET, OFFSET_UNITS, RECIPIENT_CODE_TYPES, SENDING_TIME } from '../../../../domain/shop/mail-sequence-rules.ts';
import { moneyAmount } from '../../shared/money-schema.ts';

const id = z.number().int().positive().max(2_147_483_647);
const noNul = (value: string) => !value.includes('\u0000');
const text = (max: number) => z.string().max(max).refine(noNul, 'must not contain NUL characters');

export const SequenceParams = z.object({ id: z.string().describe('the sequence id') });

// ---- Replies -----------------------------------------------------------------------------------

const ItemReply = z.object({
  id: z.number(),
  email: z.object({ subject: z.string(), content: z.string() }),
  offset_amount: z.number(),
  offset_unit: z.enum(OFFSET_UNITS),
  days_offset: z.number().describe('read only: whole calendar days for `days`, 0 for minutes and hours'),
  offset_hours: z.number().describe('read only: the offset in whole hours (days count 24, minutes rounded down)'),
  schedule: z.string().describe('read only: the timing as a sentence'),
});

export const TriggersReply = z.object({
  status_id: z.number().nullable(),
  products_dependent: z.boolean(),
  product_ids: z.array(z.number()),
  discount_code_id: z.number().nullable(),
  subscription_plan_id: z.number().nullable(),
  newsletter_subscription: z.boolean(),
  first_subscription_entry: z.boolean(),
});

const RecipientCodeReply = z.object({
  enabled: z.boolean(),
  type: z.enum(RECIPIENT_CODE_TYPES),
  value: z.string().nullable(),
  validity_days: z.number().nullable(),
  product_ids: z.array(z.number()),
});

export const SequenceReply = z
  .object({
    id: z.number(),
    name: z.string(),
    sender_id: z.number().nullable(),
    sending_time: z.string(),
    only_first_purchase: z.boolean(),
    active: z.boolean().describe('an addition to the spec: false stops every pending message'),
    items: z.array(ItemReply),
    triggers: TriggersReply,
    recipient_discount_code: RecipientCodeReply,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'ShopMailSequence' });

// ---- Writes ------------------------------------------------------------------------------------

const offsetUnit = z.enum(OFFSET_UNITS, { error: `must be one of ${OFFSET_UNITS.join(', ')}` });

/** One message as the operator writes it; the offset is checked against its unit's ceiling. */
export const SequenceItemBody = z
  .strictObject({
    email: z.strictObject({ subject: text(255).trim().min(1, 'is required'), content: text(100_000).min(1, 'is required') }),
    offset_amount: z.number().int().min(0),
    offset_unit: offsetUnit,
  })
  .superRefine((item, ctx) => {
    if (item.offset_amount > MAX_OFFSET[item.offset_unit]) {
      ctx.addIssue({ code: 'custom', path: ['offset_amount'], message: `must be at most ${MAX_OFFSET[item.offset_unit]} ${item.offset_unit}` });
    }
  });

const name = text(255).trim().min(1, 'must not be empty');

export const CreateSequenceBody = z.strictObject({
  name,
  sender_id: id.nullish(),
  items: z.array(SequenceItemBody).min(1, 'needs at least one message').max(50),
});

const productIds = z
  .array(id)
  .max(1000)
  .transform((values) => [...new Set(values)]);

export const PatchSequenceBody = z.strictObject({
  name: name.optional(),
  sender_id: id.nullable().optional(),
  sending_time: z.string().regex(SENDING_TIME, 'must be HH:MM (00:00 to 23:59)').optional(),
  only_first_purchase: z.boolean().optional(),
  active: z.boolean().optional(),
  triggers: z
    .strictObject({
      status_id: id.nullable().optional(),
      products_dependent: z.boolean().optional(),
      product_ids: productIds.optional(),
      discount_code_id: id.nullable().optional(),
      subscription_plan_id: id.nullable().optional(),
      newsletter_subscription: z.boolean().optional(),
      first_subscription_entry: z.boolean().optional(),
    })
    .optional(),
  recipient_discount_code: z
    .strictObject({
      enabled: z.boolean().optional(),
      type: z.enum(RECIPIENT_CODE_TYPES).optional().describe('percentage_discount (value: percent 1-100), value_discount (value: amount off the order), free_delivery_discount (no value)'),
      value: moneyAmount.nullable().optional(),
      validity_days: z.number().int().min(1).max(3650).nullable().optional().describe('days the code stays valid from its creation; null: no end'),
      product_ids: productIds.optional().describe('products the code applies to; empty: every product'),
    })
    .optional(),
});
export type PatchSequenceInput = z.output<typeof PatchSequenceBody>;
