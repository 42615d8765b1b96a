import { z } from 'zod';
import type { CategoryNode } from '../../../domain/shop/category-tree.ts';

export const DeliveryTypeReply = z
  .object({ id: z.number(), name: z.string(), name_displayed: z.string(), default_price: z.string(), vat_rate: z.number() })
  .meta({ id: 'ShopDeliveryType' });
export const PaymentTypeReply = z
  .object({ id: z.number(), name: z.string(), name_displayed: z.string(), default_price: z.string(), vat_rate: z.number(), cash_on_delivery: z.boolean() })
  .meta({ id: 'ShopPaymentType' });
export const OrderStatusReply = z.object({ id: z.number(), name: z.string() }).meta({ id: 'ShopOrderStatus' });

export const CategoryNodeReply: z.ZodType<CategoryNode> = z
  .object({
    id: z.number(),
    name: z.string(),
    parent_id: z.number().nullable(),
    get children() {
      return z.array(CategoryNodeReply);
    },
  })
  .meta({ id: 'ShopProductCategory', description: 'A category with its sub-categories nested in `children`.' });
