import { z } from 'zod';
import { PageQuery } from '../../shared/pagination.ts';
import { SubdomainParams } from '../shop.ts';

const INT_MAX = 2_147_483_647;

export const ProductListQuery = PageQuery.extend({
  category_id: z.coerce.number().int().positive().max(INT_MAX).optional().describe('only products in this main category'),
  search: z.string().trim().max(255).optional().describe('part of the name or SKU'),
});

export const ProductParams = SubdomainParams.extend({ id: z.coerce.number().int().positive().max(INT_MAX) });

/** A product as buyers see it (DESIGN.md section 9). */
export const StorefrontProduct = z
  .object({
    id: z.number(),
    name: z.string(),
    price: z.string().describe('the price as charged now (time-limited discounts applied)'),
    regular_price_displayed: z.string(),
    description_for_cart: z.string(),
    photo_url: z.string().describe('"" without a photo'),
    electronic: z.boolean(),
    allow_price_change: z.boolean(),
    minimal_price: z.string().nullable(),
    cart_quantity_limit: z.number().nullable(),
  })
  .meta({ id: 'StorefrontProduct' });

/** An upsell recommendation (a product of an upsell group the product or cart invokes). */
export const StorefrontRecommendation = z
  .object({ product_id: z.number(), name: z.string(), price: z.string(), title: z.string(), subtitle: z.string() })
  .meta({ id: 'StorefrontRecommendation' });

export const StorefrontProductDetail = StorefrontProduct.extend({ recommendations: z.array(StorefrontRecommendation) });
