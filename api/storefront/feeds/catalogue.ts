/**
 * What the comparison feeds list (DESIGN.md section 9): the active, visible products without
 * `hide_in_xmls` and the active sets with `expose_in_feeds` (a set needs its `feed_description`),
 * read a page at a time, as feed entries both formats write.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { categoryNames } from '../../../db/repositories/shop/products.ts';
import { feedProductPage, feedSetPage } from '../../../db/repositories/shop/storefront.ts';

export const FEED_PAGE_SIZE = 200;

export interface FeedEntry {
  /** `p<id>` for a product, `s<id>` for a set: ids unique across both. */
  id: string;
  name: string;
  description: string;
  url: string;
  imageUrl: string;
  price: string;
  category: string;
  googleProductCategory: string;
  producer: string;
  ean: string;
}

export interface FeedLinks {
  /** The storefront's base address (STOREFRONT_URL_TEMPLATE for the shop). */
  storefront: string;
  photoUrl(fileId: string): string;
}

/** Every feed entry of the shop, a page of entries at a time (products, then sets). */
export async function* feedPages(em: EntityManager, links: FeedLinks): AsyncGenerator<FeedEntry[]> {
  for (let after = 0; ; ) {
    const products = await feedProductPage(em, after, FEED_PAGE_SIZE);
    if (products.length === 0) break;
    after = products.at(-1)!.id;
    const categories = await categoryNames(em, products.map((p) => p.feedCategoryId ?? p.productCategoryIds[0]).filter((id): id is number => id != null));
    yield products.map((p) => {
      const photo = p.photo?.id;
      return {
        id: `p${p.id}`,
        name: p.name,
        description: p.description || p.descriptionForCart || p.name,
        url: p.productLink || `${links.storefront}/products/${p.id}`,
        imageUrl: photo ? links.photoUrl(photo) : '',
        price: p.price,
        category: categories.get(p.feedCategoryId ?? p.productCategoryIds[0] ?? 0) ?? '',
        googleProductCategory: '',
        producer: p.producer,
        ean: p.ean ?? '',
      };
    });
  }
  for (let after = 0; ; ) {
    const sets = await feedSetPage(em, after, FEED_PAGE_SIZE);
    if (sets.length === 0) break;
    after = sets.at(-1)!.id;
    const categories = await categoryNames(em, sets.map((s) => s.productCategoryId).filter((id): id is number => id != null));
    yield sets.map((s) => ({
      id: `s${s.id}`,
      name: s.name,
      description: s.feedDescription,
      url: `${links.storefront}/cart?product_set=${encodeURIComponent(s.slug)}`,
      imageUrl: '',
      price: s.price,
      category: categories.get(s.productCategoryId ?? 0) ?? '',
      googleProductCategory: s.googleProductCategory,
      producer: s.producer,
      ean: s.ean ?? '',
    }));
  }
}
