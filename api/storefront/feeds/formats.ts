/**
 * The two comparison feed formats, written entry by entry with xmlbuilder2 (never by string
 * concatenation): Google Merchant Center's RSS 2.0 with the `g:` namespace, and Ceneo's `offers`.
 */
import type { XMLBuilderCB } from 'xmlbuilder2/lib/interfaces.js';
import type { FeedEntry } from './catalogue.ts';
import { textElement, xmlText } from './xml-stream.ts';

export const GOOGLE_NAMESPACE = 'http://base.google.com/ns/1.0';

export interface FeedShop {
  name: string;
  currency: string;
  storefront: string;
}

/** A feed format: its envelope and one entry. */
export interface FeedFormat {
  open(xml: XMLBuilderCB, shop: FeedShop): void;
  entry(xml: XMLBuilderCB, entry: FeedEntry, shop: FeedShop): void;
  close(xml: XMLBuilderCB): void;
}

export const googleFeed: FeedFormat = {
  open(xml, shop) {
    xml.dec({ version: '1.0', encoding: 'UTF-8' }).ele('rss').att('version', '2.0').att('xmlns:g', GOOGLE_NAMESPACE).ele('channel');
    textElement(xml, 'title', shop.name);
    textElement(xml, 'link', shop.storefront);
    textElement(xml, 'description', `${shop.name}: products`);
  },
  entry(xml, entry, shop) {
    xml.ele('item');
    textElement(xml, 'g:id', entry.id);
    textElement(xml, 'g:title', entry.name.slice(0, 150));
    textElement(xml, 'g:description', entry.description.slice(0, 5000));
    textElement(xml, 'g:link', entry.url);
    textElement(xml, 'g:image_link', entry.imageUrl);
    textElement(xml, 'g:availability', 'in_stock');
    textElement(xml, 'g:price', `${entry.price} ${shop.currency}`);
    textElement(xml, 'g:condition', 'new');
    textElement(xml, 'g:brand', entry.producer);
    textElement(xml, 'g:gtin', entry.ean);
    if (!entry.ean && !entry.producer) textElement(xml, 'g:identifier_exists', 'no');
    textElement(xml, 'g:google_product_category', entry.googleProductCategory);
    textElement(xml, 'g:product_type', entry.category);
    xml.up();
  },
  close(xml) {
    xml.up().up().end();
  },
};

export const ceneoFeed: FeedFormat = {
  open(xml) {
    xml.dec({ version: '1.0', encoding: 'UTF-8' }).ele('offers').att('xmlns:xsi', 'http://www.w3.org/2001/XMLSchema-instance').att('version', '1').ele('group').att('name', 'other');
  },
  entry(xml, entry) {
    xml.ele('o').att('id', entry.id).att('url', xmlText(entry.url)).att('price', entry.price).att('avail', '1').att('stock', '1').att('basket', '1');
    textElement(xml, 'cat', entry.category);
    textElement(xml, 'name', entry.name);
    if (entry.imageUrl) xml.ele('imgs').ele('main').att('url', xmlText(entry.imageUrl)).up().up();
    textElement(xml, 'desc', entry.description);
    if (entry.producer || entry.ean) {
      xml.ele('attrs');
      if (entry.producer) xml.ele('a').att('name', 'Producent').txt(xmlText(entry.producer)).up();
      if (entry.ean) xml.ele('a').att('name', 'EAN').txt(xmlText(entry.ean)).up();
      xml.up();
    }
    xml.up();
  },
  close(xml) {
    xml.up().up().end();
  },
};
