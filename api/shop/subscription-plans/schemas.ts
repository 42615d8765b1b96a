import { z } from 'zod';
import { EXTENSION_STRATEGIES, MAX_INTERVAL_DAYS } from '../../../domain/shop/subscription-rules.ts';
import { PageQuery } from '../../shared/pagination.ts';
import { boolText, rowId as id, text } from '../shared/fields.ts';
import { moneyAmount } from '../shared/money-schema.ts';
import { wrapped } from '../shared/wrapped-body.ts';

/** One plan-product link as sent; ranges are the domain's rules (subscription-rules.ts), answered 422 by field. */
const PlanLinkBody = z.strictObject({
  product_id: id,
  interval: z.number().int().describe(`days per period, 1 to ${MAX_INTERVAL_DAYS}`),
  renewals_limit: z.number().int().default(0).describe('renewals allowed; 0 (the default) means no limit'),
});

const planFields = {
  name: text(255).trim().min(1, 'must not be empty'),
  automatic_renewal: z.boolean().describe('recurring payments; a product may belong to only one automatic plan'),
  extension_strategy: z.enum(EXTENSION_STRATEGIES).describe('`immediate`: a renewal period starts at its payment; `continuous`: at the previous end'),
  free_delivery_minimum_amount: moneyAmount.nullable(),
  superseded_subscription_plan_id: id.nullable().describe('a plan of this shop (not this one) whose subscription ends when this plan is granted'),
  send_email_about_activation: z.boolean(),
  send_email_about_renewal: z.boolean(),
  send_email_about_expiration_in_one_day: z.boolean(),
  send_email_about_expiration_in_one_week: z.boolean(),
  products: z.array(PlanLinkBody).max(1000).describe('replaces every link when sent; without the key the links stay'),
};

const PlanFields = z.strictObject(planFields).partial();
export type PlanFieldsInput = z.output<typeof PlanFields>;

export const CreatePlanBody = wrapped(
  'subscription_plan',
  PlanFields.required({ name: true }).meta({ description: 'A new plan: `name` is required; defaults: no automatic renewal, `immediate`, no mails, no products.' }),
);

export const PatchPlanBody = wrapped('subscription_plan', PlanFields.meta({ description: 'Only the fields sent change; a `products` array replaces every link, without it the links stay.' }));

export const PlanListQuery = PageQuery.extend({
  automatic_renewal: boolText.optional().describe('`true` or `false`'),
  search: text(255).trim().optional().describe('part of the name, case-insensitive'),
});

export const PlanReply = z
  .object({
    id: z.number(),
    name: z.string(),
    automatic_renewal: z.boolean(),
    extension_strategy: z.enum(EXTENSION_STRATEGIES),
    free_delivery_minimum_amount: z.string().nullable(),
    superseded_subscription_plan_id: z.number().nullable(),
    send_email_about_activation: z.boolean(),
    send_email_about_renewal: z.boolean(),
    send_email_about_expiration_in_one_day: z.boolean(),
    send_email_about_expiration_in_one_week: z.boolean(),
    products: z.array(z.object({ product_id: z.number(), product_name: z.string(), interval: z.number(), renewals_limit: z.number() })),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShopSubscriptionPlan' });
