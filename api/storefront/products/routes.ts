import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listProducts } from '../../../db/repositories/shop/products.ts';
import { recommendationsFor, visibleProduct } from '../../../db/repositories/shop/storefront.ts';
import { notFound } from '../../shared/errors.ts';
import { pageMeta, pageOf, pageWindow } from '../../shared/pagination.ts';
import { ErrorBody, ValidationErrorBody, data } from '../../shared/schemas.ts';
import { photoUrlFor } from '../../shop/products/serialize.ts';
import { storefrontShop, SubdomainParams } from '../shop.ts';
import { ProductListQuery, ProductParams, StorefrontProduct, StorefrontProductDetail } from './schemas.ts';
import { recommendationReply, storefrontProduct } from './serialize.ts';

/** The public catalogue: active, visible products at the price charged now. */
export const storefrontProductRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/products',
    {
      schema: {
        operationId: 'storefront.products.list',
        summary: "Lists the shop's visible products",
        description: 'Active products that are not hidden, oldest first; `price` is what checkout charges now.',
        params: SubdomainParams,
        querystring: ProductListQuery,
        response: { 200: pageOf(StorefrontProduct), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      await storefrontShop(request);
      const { category_id, search } = request.query;
      const [products, total] = await listProducts(request.em, { active: true, categoryId: category_id, search }, pageWindow(request.query));
      const photoUrl = photoUrlFor(request);
      return { data: products.map((p) => storefrontProduct(p, photoUrl)), meta: pageMeta(request.query, total) };
    },
  );

  app.get(
    '/products/:id',
    {
      schema: {
        operationId: 'storefront.products.get',
        summary: 'Reads a visible product with its upsell recommendations',
        description: 'The `is_recommended` items of the active upsell groups in which this product `invokes_recommendation`, highest priority first. 404 for an inactive, hidden or unknown product.',
        params: ProductParams,
        response: { 200: data(StorefrontProductDetail), 404: ErrorBody, 422: ValidationErrorBody },
      },
    },
    async (request) => {
      const shop = await storefrontShop(request);
      const product = await visibleProduct(request.em, request.params.id);
      if (!product) throw notFound('product');
      const recommendations = await recommendationsFor(request.em, shop.id, [product.id]);
      return { data: { ...storefrontProduct(product, photoUrlFor(request)), recommendations: recommendations.map(recommendationReply) } };
    },
  );
};
