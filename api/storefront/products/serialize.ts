import type { z } from 'zod';
import type { IProduct } from '../../../db/entities/shop/index.ts';
import type { Recommendation } from '../../../db/repositories/shop/storefront.ts';
import type { StorefrontProduct, StorefrontRecommendation } from './schemas.ts';

export function storefrontProduct(product: IProduct, photoUrl: (fileId: string) => string): z.infer<typeof StorefrontProduct> {
  const photo = product.photo?.id;
  return {
    id: product.id,
    name: product.name,
    price: product.price,
    regular_price_displayed: product.regularPriceDisplayed,
    description_for_cart: product.descriptionForCart,
    photo_url: photo ? photoUrl(photo) : '',
    electronic: product.electronic,
    allow_price_change: product.allowPriceChange,
    minimal_price: product.minimalPrice ?? null,
    cart_quantity_limit: product.cartQuantityLimit ?? null,
  };
}

export const recommendationReply = (r: Recommendation): z.infer<typeof StorefrontRecommendation> => ({
  product_id: r.productId,
  name: r.name,
  price: r.price,
  title: r.title,
  subtitle: r.subtitle,
});
