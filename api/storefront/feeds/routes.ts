import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, ValidationErrorBody } from '../../shared/schemas.ts';
import { photoUrlFor } from '../../shop/products/serialize.ts';
import { storefrontShopRecord, SubdomainParams } from '../shop.ts';
import { feedPages } from './catalogue.ts';
import { ceneoFeed, googleFeed, type FeedFormat } from './formats.ts';
import { xmlStream } from './xml-stream.ts';

const WHAT = 'The visible products without `hide_in_xmls` and the active sets with `expose_in_feeds` (and a `feed_description`)';

const feedSchema = (operationId: string, summary: string, description: string) => ({
  operationId,
  summary,
  description,
  params: SubdomainParams,
  response: { 200: z.any().describe('the feed (application/xml), streamed'), 404: ErrorBody, 422: ValidationErrorBody },
});

/** Comparison feeds of the shop's catalogue, streamed a page of products at a time. */
export const storefrontFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  const serve = (format: FeedFormat) => async (request: FastifyRequest<{ Params: { subdomain: string } }>, reply: FastifyReply) => {
    const shop = await storefrontShopRecord(request);
    const storefront = app.storefrontUrl(shop.subdomain);
    const feed = { name: shop.name, currency: shop.currency, storefront };
    const pages = feedPages(request.em, { storefront, photoUrl: photoUrlFor(request) });
    const body = xmlStream(async function* (xml) {
      format.open(xml, feed);
      for await (const page of pages) {
        for (const entry of page) format.entry(xml, entry, feed);
        yield;
      }
      format.close(xml);
    });
    return reply.type('application/xml; charset=utf-8').send(body);
  };

  app.get('/feeds/google.xml', { schema: feedSchema('storefront.feeds.google', 'Google Merchant Center feed (RSS 2.0)', `${WHAT}, in RSS 2.0 with the \`g:\` namespace.`) }, serve(googleFeed));
  app.get('/feeds/ceneo.xml', { schema: feedSchema('storefront.feeds.ceneo', 'Ceneo offers feed (XML)', `${WHAT}, in Ceneo's \`offers\` format.`) }, serve(ceneoFeed));
};
