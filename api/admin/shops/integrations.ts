import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { integrationSettings, saveAnalyticsSettings, saveMarketingSettings, type AnalyticsRow, type MarketingRow } from '../../../db/repositories/shop/integrations.ts';
import { sealSecret } from '../../../adapters/secrets/secret-box.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { AS_SENT_422, validationErrorHandler } from '../../shared/validation-errors.ts';
import { shopOf } from './routes.ts';
import { ShopParams } from './schemas.ts';

/** The mailing tools the marketing effect speaks (adapters/marketing). */
export const MARKETING_PROVIDERS = ['mailchimp'] as const;

const Tag = z.string().trim().min(1).max(100);
const Tags = z.array(Tag).max(50);

const AnalyticsBody = z.strictObject({
  measurement_id: z.string().regex(/^G-[A-Z0-9]{4,20}$/, 'must be a GA4 measurement id (G-XXXXXXX)'),
  api_secret: z.string().min(8).max(200).regex(/^[\w-]+$/, 'must be a Measurement Protocol API secret').describe('write-only, sealed'),
});
const AnalyticsReply = z.object({ configured: z.boolean(), measurement_id: z.string().nullable(), api_secret_configured: z.boolean() }).meta({ id: 'ShopAnalyticsIntegration' });

const MarketingBody = z.strictObject({
  provider: z.enum(MARKETING_PROVIDERS),
  api_key: z.string().regex(/^[0-9a-f]{16,64}-[a-z]+\d+$/, 'must be a Mailchimp API key (<key>-<data center>, e.g. ...-us21)').describe('write-only, sealed'),
  list_id: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a Mailchimp audience id'),
  tags: Tags.optional().describe('tags every buyer gets'),
  product_tags: z
    .record(z.string().regex(/^[1-9]\d{0,9}$/, 'must be a product id'), Tags)
    .optional()
    .describe('tags a buyer of the product gets, by product id'),
});
const MarketingReply = z
  .object({
    configured: z.boolean(),
    provider: z.enum(MARKETING_PROVIDERS).nullable(),
    list_id: z.string().nullable(),
    api_key_configured: z.boolean(),
    tags: z.array(z.string()),
    product_tags: z.record(z.string(), z.array(z.string())),
  })
  .meta({ id: 'ShopMarketingIntegration' });

const analyticsReply = (row: AnalyticsRow | null) => ({ data: { configured: row !== null, measurement_id: row?.measurementId ?? null, api_secret_configured: row !== null } });
const marketingReply = (row: MarketingRow | null) => ({
  data: {
    configured: row !== null,
    provider: (row?.provider ?? null) as (typeof MARKETING_PROVIDERS)[number] | null,
    list_id: row?.listId ?? null,
    api_key_configured: row !== null,
    tags: row?.tags ?? [],
    product_tags: row?.productTags ?? {},
  },
});
const unique = (tags: string[]) => [...new Set(tags)];

/**
 * The shop's analytics and marketing tools (DESIGN.md section 8): its GA4 property and its
 * mailing tool. Secrets are sealed with `SECRETS_KEY` and never shown; the worker reads these per
 * order, so one shop's tools never see another shop's orders.
 */
export const shopIntegrationAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));

  app.get(
    '/shops/:shop_id/integrations/analytics',
    { schema: { operationId: 'admin.shops.integrations.analytics.get', summary: 'The GA4 property of the shop', params: ShopParams, response: { 200: data(AnalyticsReply), 404: ErrorBody } } },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return analyticsReply((await integrationSettings(request.em, shop.id)).analytics);
    },
  );

  app.put(
    '/shops/:shop_id/integrations/analytics',
    {
      schema: {
        operationId: 'admin.shops.integrations.analytics.update',
        summary: 'Set the GA4 property that receives the purchase event of every cleared order',
        params: ShopParams,
        body: AnalyticsBody,
        response: { 200: data(AnalyticsReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const row = { measurementId: request.body.measurement_id, apiSecretSealed: sealSecret(request.body.api_secret, app.secretsKey) };
      await saveAnalyticsSettings(request.em, shop.id, row);
      return analyticsReply(row);
    },
  );

  app.get(
    '/shops/:shop_id/integrations/marketing',
    { schema: { operationId: 'admin.shops.integrations.marketing.get', summary: 'The mailing tool of the shop', params: ShopParams, response: { 200: data(MarketingReply), 404: ErrorBody } } },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      return marketingReply((await integrationSettings(request.em, shop.id)).marketing);
    },
  );

  app.put(
    '/shops/:shop_id/integrations/marketing',
    {
      schema: {
        operationId: 'admin.shops.integrations.marketing.update',
        summary: 'Set the mailing tool that tags the buyer of every cleared order',
        description: 'Mailchimp: the buyer becomes a member of the audience `list_id` (transactional when new) and gets `tags` plus the `product_tags` of each product bought.',
        params: ShopParams,
        body: MarketingBody,
        response: { 200: data(MarketingReply), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await shopOf(request.em, request.params.shop_id);
      const { provider, api_key, list_id, tags: always = [], product_tags = {} } = request.body;
      const row: MarketingRow = {
        provider,
        apiKeySealed: sealSecret(api_key, app.secretsKey),
        listId: list_id,
        tags: unique(always),
        productTags: Object.fromEntries(Object.entries(product_tags).map(([id, t]) => [id, unique(t)])),
      };
      await saveMarketingSettings(request.em, shop.id, row);
      return marketingReply(row);
    },
  );
};
