import { z } from 'zod';
import { MAX_OFFSET_DAYS, MAX_OFFSET_HOURS } from '../../../../domain/shop/automatic-status.ts';

const NO_NUL = 'must not contain NUL characters';
const text = (max: number) => z.string().max(max).refine((value) => !value.includes('\u0000'), NO_NUL);
const id = z.number().int().positive().max(2_147_483_647);
/** A mail body: HTML up to 200 000 characters (the request itself is at most 1 MB). */
const html = text(200_000);

export const OrderStatusParams = z.object({ id: z.string() });

const AutomaticallySetFields = {
  automatically_set_after_status_id: id.describe('status A: once an order reaches it, this status is set after the offset'),
  automatically_set_offset_days: z.number().int().min(0).max(MAX_OFFSET_DAYS).describe('days of 24 hours'),
  automatically_set_offset_hours: z.number().int().min(0).max(MAX_OFFSET_HOURS),
  automatically_set_if_total_zero: z.boolean().describe('only orders whose total is zero'),
  automatically_set_only_for_shop_origin_orders: z.boolean().describe('only orders a buyer placed at the storefront (with a placed_ip)'),
};

export const AutomaticallySetReply = z.object(AutomaticallySetFields);

export const SubstitutionBlockReply = z.object({ name: z.string(), tag: z.string(), delivery_type_id: z.number(), content: z.string() });

export const OrderStatusConfigReply = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.string(),
  name_editable: z.boolean(),
  send_email_on_status_change: z.boolean(),
  sender_id: z.number().nullable(),
  bcc_email_address: z.string().nullable(),
  treat_order_as_handled: z.boolean(),
  automatically_set: AutomaticallySetReply.nullable(),
  email: z
    .object({
      subject: z.string(),
      content: z.string(),
      electronic_order_substitution_content: z.string().nullable(),
      delivery_type_substitutions: z.array(SubstitutionBlockReply),
    })
    .nullable(),
});

export const PatchOrderStatusBody = z
  .strictObject({
    name: text(255).trim().min(1, 'must not be empty'),
    send_email_on_status_change: z.boolean(),
    sender_id: id.nullable(),
    bcc_email_address: z.union([z.email().max(255), z.literal('')]).nullable().describe("'' or null: no copy"),
    treat_order_as_handled: z.boolean(),
    automatically_set: z
      .strictObject(AutomaticallySetFields)
      .partial()
      .nullable()
      .describe('null turns it off; sent fields change, the others stay (defaults: 0, 0, false, false); the first write needs automatically_set_after_status_id'),
    email: z
      .strictObject({
        subject: text(255).trim().min(1, 'must not be empty'),
        content: html.min(1, 'must not be empty'),
        electronic_order_substitution_content: html.nullable().describe('for orders with an electronic product: the body instead of content; null or empty: content'),
        delivery_type_substitutions: z
          .unknown()
          .describe('the complete new list of blocks `{name?, delivery_type_id?, content}` (spec rule 4); left out, the blocks stay')
          .meta({ type: 'array', items: { type: 'object' } }),
      })
      .partial()
      .describe('the first write on a status without a mail needs subject and content'),
  })
  .partial();
export type PatchOrderStatus = z.output<typeof PatchOrderStatusBody>;

const orderNumber = z.union([z.string().max(32), z.number().int()]).describe('`123` or `#123`: tags and download links from that order');

export const TestEmailBody = z.strictObject({
  email: z.string().max(255).describe('the address the test goes to'),
  order_number: orderNumber.optional(),
});

export const TestEmailsBody = z.strictObject({
  email: z.string().max(255),
  order_number: orderNumber.optional(),
  ids: z.array(id).max(1000).optional().describe('statuses to test; all the shop has when left out'),
});

const TestedStatus = z.object({ id: z.number(), name: z.string(), send_email_on_status_change: z.boolean() });

export const TestEmailReply = TestedStatus.extend({ to: z.string(), sent: z.literal(true).describe('handed to delivery: the send is persisted and runs in the background') });

export const TestEmailsReply = z.object({
  sent: z.array(TestedStatus),
  skipped: z.array(TestedStatus.extend({ reason: z.literal('no_email') })),
});
