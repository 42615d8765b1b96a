import { z } from 'zod';
import { text } from '../shared/fields.ts';
import { MAX_ITEMS, itemName, itemRef } from '../shared/item-list.ts';
import { wrapped } from '../shared/wrapped-body.ts';

const GroupItemInput = z.strictObject({
  ...itemRef,
  title: text(255).default(''),
  subtitle: text(255).default(''),
  priority: z.number().int().min(-2_147_483_648).max(2_147_483_647).default(0),
  invokes_recommendation: z.boolean().default(false).describe('the product in the cart opens the frame'),
  is_recommended: z.boolean().default(false).describe('the product is offered in the frame'),
});
export type GroupItemInput = z.output<typeof GroupItemInput>;

/** The write fields of an upsell group (spec: Product recommendation (upsell) group). */
const groupFields = {
  name: itemName,
  title: text(255),
  subtitle: text(255),
  active: z.boolean().describe('default true'),
  items: z.array(GroupItemInput).max(MAX_ITEMS).describe('replaces all items; without the key the items stay'),
};

export const CreateRecommendationGroupBody = wrapped('product_recommendation_group', z.strictObject(groupFields).partial().required({ name: true }));
export const PatchRecommendationGroupBody = wrapped('product_recommendation_group', z.strictObject(groupFields).partial());
export type RecommendationGroupWrite = z.output<typeof PatchRecommendationGroupBody>['product_recommendation_group'];

export const RecommendationGroupReply = z
  .object({
    id: z.number(),
    name: z.string(),
    title: z.string(),
    subtitle: z.string(),
    active: z.boolean(),
    items: z.array(
      z.object({
        id: z.number(),
        product_id: z.number(),
        product_name: z.string(),
        title: z.string(),
        subtitle: z.string(),
        priority: z.number(),
        invokes_recommendation: z.boolean(),
        is_recommended: z.boolean(),
      }),
    ),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ShopProductRecommendationGroup' });
