import { z } from 'zod';
import { emailSchema } from '../../../domain/shared/email.ts';
import { typesOf } from '../../../domain/shop/automatic-discount-rules.ts';
import { PRODUCT_RELATIONS } from '../../../domain/shop/discount-rules.ts';
import { PageQuery } from '../../shared/pagination.ts';
import { discountSettingsFields } from '../discount-codes/schemas.ts';
import { boolText } from '../shared/fields.ts';
import { moneyAmount } from '../shared/money-schema.ts';
import type { AutomaticDiscountResource, OwnField } from './resources.ts';

type Shape = Record<string, z.ZodType>;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const emailDomain = z
  .string()
  .trim()
  .max(254)
  .transform((value) => value.toLowerCase().replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN, 'must be a domain such as example.com'));

/** The fields every automatic discount takes (spec: Common fields), shared with discount codes where they mean the same. */
function commonWriteFields(resource: AutomaticDiscountResource): Shape {
  const { relation_with_products, product_ids, product_category_ids, usages_limit, active } = discountSettingsFields;
  return {
    discount_type: z.enum(typesOf(resource.kind) as [string, ...string[]]),
    value: moneyAmount.describe('percent (above 0, at most 100), amount, or the target price of one unit for unit_price_discount'),
    relation_with_products,
    product_ids,
    product_category_ids,
    // Time-limited discounts have no usage limit: the field is refused as unknown there.
    ...(resource.kind === 'time_limited' ? {} : { usages_limit }),
    active,
  };
}

function ownWriteField(resource: AutomaticDiscountResource, field: OwnField): z.ZodType {
  switch (field) {
    case 'email':
      return emailSchema;
    case 'email_domain':
      return emailDomain;
    case 'minimum_order_value':
      return moneyAmount.nullable().describe('the products cost from which the discount applies');
    case 'start_date':
    case 'end_date':
      return resource.required.includes(field) ? discountSettingsFields[field].unwrap() : discountSettingsFields[field];
  }
}

function writeShape(resource: AutomaticDiscountResource): Shape {
  return { ...commonWriteFields(resource), ...Object.fromEntries(resource.own.map((field) => [field, ownWriteField(resource, field)])) };
}

const REQUIRED_COMMON = ['discount_type', 'value', 'relation_with_products'] as const;

/** POST: the common and own fields, flat; the spec's required ones must be sent. */
export function createBody(resource: AutomaticDiscountResource) {
  const required = Object.fromEntries([...REQUIRED_COMMON, ...resource.required].map((field) => [field, true as const])) as Record<string, true> & Record<number, never>;
  return z
    .strictObject(writeShape(resource))
    .partial()
    .required(required)
    .meta({ description: `A new ${resource.name}: ${[...REQUIRED_COMMON, ...resource.required].join(', ')} required.` });
}

/** PATCH: only the fields sent change. */
export function patchBody(resource: AutomaticDiscountResource) {
  return z.strictObject(writeShape(resource)).partial().meta({ description: 'Only the fields sent change.' });
}

export type AutomaticDiscountWrite = Partial<Record<'discount_type' | 'value' | 'relation_with_products' | 'product_ids' | 'product_category_ids' | 'usages_limit' | 'active' | OwnField, unknown>>;

/** The list query of the resource; typed as the union of every filter, so the handler reads it without a cast. */
export function listQuery(resource: AutomaticDiscountResource): z.ZodType<AutomaticDiscountListQuery, Record<string, unknown>> {
  switch (resource.listFilter) {
    case 'email':
      return PageQuery.extend({ email: emailSchema.optional().describe('the exact address, without letter case') });
    case 'email_domain':
      return PageQuery.extend({ email_domain: emailDomain.optional().describe('the exact domain, without letter case') });
    case 'active':
      return PageQuery.extend({ active: boolText.optional().describe('the `active` field of the replies (the switch); `future` and `past` tell where the window stands') });
    case null:
      return PageQuery;
  }
}
export type AutomaticDiscountListQuery = z.output<typeof PageQuery> & { email?: string; email_domain?: string; active?: boolean };

const OWN_REPLY: Record<OwnField, z.ZodType> = {
  email: z.string(),
  email_domain: z.string(),
  minimum_order_value: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
};

export function replySchema(resource: AutomaticDiscountResource) {
  return z
    .object({
      id: z.number(),
      discount_type: z.enum(typesOf(resource.kind) as [string, ...string[]]),
      value: z.string(),
      value_description: z.string(),
      usages_limit: z.number().nullable(),
      usages: z.number().describe('read only'),
      active: z.boolean(),
      relation_with_products: z.enum(PRODUCT_RELATIONS),
      product_ids: z.array(z.number()),
      product_category_ids: z.array(z.number()),
      ...Object.fromEntries(resource.own.map((field) => [field, OWN_REPLY[field]])),
      ...(resource.kind === 'time_limited'
        ? { future: z.boolean().describe('the start is still ahead'), past: z.boolean().describe('the end has passed') }
        : {}),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .meta({ id: resource.schemaId });
}

export const AutomaticDiscountParams = z.object({ id: z.string().max(20).describe('the discount id') });
export const DeleteAutomaticDiscountReply = z.object({ data: z.object({ id: z.number(), deleted: z.literal(true) }) });
