import { z } from 'zod';
import { CLUB_PRODUCTS_MAX, webhookHostProblem } from '../../../../domain/shop/club-rules.ts';
import { webhookUrlProblem } from '../../../../domain/shared/webhooks.ts';

/** Bodies and replies of `/configuration/club` (spec: Club integration settings). */

const id = z.number().int().positive().max(2_147_483_647);
const productIds = z
  .array(id)
  .max(CLUB_PRODUCTS_MAX)
  .transform((values) => [...new Set(values)]);

/** A webhook address (the rule of every webhook, domain/shared/webhooks.ts), or `""` to keep the stored one. */
const webhookUrlOrKeep = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = value === '' ? null : (webhookUrlProblem(value) ?? webhookHostProblem(value));
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const PatchClubBody = z
  .strictObject({
    active: z.boolean().describe('whether club webhooks are sent (default true)'),
    order_status_id: id.describe('the status at which the webhook goes; default the Paid status'),
    webhook_url: webhookUrlOrKeep
      .nullable()
      .describe('write-only (it carries the club\'s token): absolute http(s); `""` keeps the stored one; `null` is refused (422); required when the first PATCH creates the integration'),
    webhook_secret_key: z
      .string()
      .max(512)
      .nullable()
      .describe('write-only: signs the webhook as the shop\'s webhooks are signed; `""` keeps the stored one, `null` clears it (then the webhook goes unsigned)'),
    product_ids: productIds.describe(`replaces the whole list (at most ${CLUB_PRODUCTS_MAX}); empty: the webhook goes for every order`),
  })
  .partial();

export const AddClubProductsBody = z.strictObject({
  product_ids: productIds.refine((ids) => ids.length > 0, 'list at least one product'),
});

export const ClubProductParams = z.object({ product_id: z.string().describe('a product on the club list') });
export const ClubDeliveryParams = z.object({ delivery_id: z.uuid().describe('a delivery of the club webhook (`GET /configuration/club/deliveries`)') });

export const ClubReply = z
  .object({
    configured: z.boolean().describe('false until the first PATCH; the other fields then show the defaults'),
    active: z.boolean(),
    webhook_url_configured: z.boolean(),
    webhook_host: z.string().describe('the host of the address, which is never returned (it carries a token)'),
    webhook_secret_key_configured: z.boolean(),
    order_status_id: z.number(),
    product_ids: z.array(z.number()),
    products: z.array(z.object({ id: z.number(), name: z.string() })),
    fires_for_all_products: z.boolean().describe('true when the product list is empty'),
  })
  .meta({ id: 'ClubIntegration' });
