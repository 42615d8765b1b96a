import { z } from 'zod';
import { MAX_INTERVAL_DAYS, PERIOD_HORIZON_DAYS, PERIOD_KINDS, SUBSCRIBER_STATUSES } from '../../../domain/shop/subscription-rules.ts';
import { PageQuery } from '../../shared/pagination.ts';
import { PathParams, boolText, queryRowId, rowId as id, text as untrimmed } from '../shared/fields.ts';
import { moneyAmount } from '../shared/money-schema.ts';

const text = (max: number) => untrimmed(max).trim();
const instant = z.iso.datetime({ offset: true }).transform((value) => new Date(value)).meta({ type: 'string', format: 'date-time' });
/** An ISO 8601 instant, or a calendar date (the start of that day in the shop's time zone). */
const instantOrDay = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .meta({ type: 'string', description: 'ISO 8601 instant with offset, or YYYY-MM-DD (the start of that day in the shop\'s time zone)' });

export const SubscriberListQuery = PageQuery.extend({
  email: text(255).optional().describe('compared ignoring case'),
  subscription_plan_id: queryRowId.optional(),
  custom_identifier: text(255).optional(),
  active: boolText.optional().describe('`true`: status active and the latest period not over; `false`: the others'),
  expires_before: instantOrDay.optional().describe('the latest period ends before this'),
  expires_after: instantOrDay.optional().describe('the latest period ends after this'),
});

const RenewalItemBody = z.strictObject({
  product_id: id,
  quantity: z.number().int().default(1).describe('1 to 10000; default 1'),
  price: moneyAmount.nullable().optional().describe('omitted or null: the catalogue price at each charge (`price_source: catalogue`)'),
});

export const PatchSubscriberBody = z
  .strictObject({
    renewal_items: z.array(RenewalItemBody).max(100).describe('replaces the whole list; an empty list is refused (422)'),
    renewal_interval_days: z.number().int().nullable().describe(`1 to ${MAX_INTERVAL_DAYS}; length of later periods, not the running one; null: from the product's plan link`),
    renewal_paused: z.boolean(),
    custom_identifier: text(255)
      .transform((value) => value || null)
      .nullable()
      .describe('blank (after trimming) or null: none'),
  })
  .partial()
  .meta({ description: 'Only the fields sent change; `service_ref` and any other field are not writable (422).' });
export type SubscriberPatch = z.output<typeof PatchSubscriberBody>;

export const PatchPeriodBody = z.strictObject({
  active_until: instant.describe(`ISO 8601; not before the running period's start, at most ${PERIOD_HORIZON_DAYS} days from now`),
});

export const SubscriberParams = PathParams;

export const PeriodReply = z
  .object({
    id: z.number(),
    kind: z.enum(PERIOD_KINDS),
    starts_at: z.string(),
    ends_at: z.string(),
    order_id: z.number().nullable(),
    moved_from: z.string().nullable().describe('the end before the last move'),
    moved_at: z.string().nullable(),
  })
  .meta({ id: 'ShopSubscriberPeriod' });

const subscriberFields = {
  id: z.number(),
  service_ref: z.string(),
  custom_identifier: z.string().nullable(),
  email: z.string(),
  subscription_plan_id: z.number(),
  product_id: z.number().nullable(),
  order_id: z.number().nullable(),
  status: z.enum(SUBSCRIBER_STATUSES),
  active: z.boolean(),
  active_until: z.string().nullable().describe('the end of the latest period'),
  renewal_paused: z.boolean(),
  renewal_interval_days: z.number().nullable(),
  renewal_items: z.array(z.object({ product_id: z.number(), quantity: z.number(), price: z.string().nullable(), price_source: z.enum(['override', 'catalogue']) })),
  renewals_done: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const SubscriberReply = z.object(subscriberFields).meta({ id: 'ShopSubscriber' });
export const SubscriberDetailReply = z.object({ ...subscriberFields, periods: z.array(PeriodReply) }).meta({ id: 'ShopSubscriberDetail' });
