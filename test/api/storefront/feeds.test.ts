import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { Product, ProductSet } from '../../../db/entities/shop/index.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { FEED_PAGE_SIZE } from '../../../api/storefront/feeds/catalogue.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertProductSet } from '../../helpers/shop-checkout.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer, type Buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
let store: Buyer;
const ids = {} as Record<'book' | 'hiddenInXml' | 'inactive' | 'hidden' | 'foreign' | 'exposedSet' | 'noDescriptionSet' | 'plainSet', number>;

/** The DOM of xmlbuilder2's parser, as far as the tests read it. */
interface XmlElement {
  tagName: string;
  children: ArrayLike<XmlElement>;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
}

/** Parses the reply as XML (throws on malformed XML): its document element. */
function parse(xml: string): XmlElement {
  return create(xml).root().node as unknown as XmlElement;
}
const elements = (parent: XmlElement, name: string): XmlElement[] => Array.from(parent.getElementsByTagName(name));
/** The child elements' text by tag name (entities decoded). */
const fields = (element: XmlElement): Record<string, string> => Object.fromEntries(Array.from(element.children).map((child) => [child.tagName, child.textContent ?? '']));

beforeAll(async () => {
  stack = await startTestApp('storefront-feeds', { storefrontUrlTemplate: 'https://{subdomain}.shop.example' });
  const other = await createTestShop(stack.app, 'feeds-two');
  shop = await createTestShop(stack.app, 'feeds-one');
  store = buyer(stack.app, shop.subdomain);
  const { orm } = stack;
  ids.book = await insertProduct(orm, shop.id, { name: 'Tom & Jerry <"Deluxe">', price: '49.99' });
  await orm.em.fork().nativeUpdate(Product, { id: ids.book }, { description: 'A book\u0001 with ]]> & <b>tags</b>', ean: '5901234123457', producer: 'Wydawnictwo \'Ą\'' }, { filters: false });
  ids.hiddenInXml = await insertProduct(orm, shop.id, { name: 'Not in feeds' });
  await orm.em.fork().nativeUpdate(Product, { id: ids.hiddenInXml }, { hideInXmls: true }, { filters: false });
  ids.inactive = await insertProduct(orm, shop.id, { name: 'Inactive', active: false });
  ids.hidden = await insertProduct(orm, shop.id, { name: 'Hidden', hidden: true });
  ids.foreign = await insertProduct(orm, other.id, { name: 'Foreign' });
  ids.exposedSet = await insertProductSet(orm, shop.id, '70.00', [{ productId: ids.book }]);
  await orm.em.fork().nativeUpdate(ProductSet, { id: ids.exposedSet }, { exposeInFeeds: true, feedDescription: 'Two books & more', googleProductCategory: 'Media > Books' }, { filters: false });
  ids.noDescriptionSet = await insertProductSet(orm, shop.id, '10.00', [{ productId: ids.book }]);
  await orm.em.fork().nativeUpdate(ProductSet, { id: ids.noDescriptionSet }, { exposeInFeeds: true }, { filters: false });
  ids.plainSet = await insertProductSet(orm, shop.id, '20.00', [{ productId: ids.book }]);
});
afterAll(() => stack.close());

describe('GET /store/v1/:subdomain/feeds/google.xml', () => {
  it('is RSS 2.0 with the g: namespace listing the visible products without hide_in_xmls and the exposed sets, escaped', async () => {
    const res = await store.get('/feeds/google.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const rss = parse(res.body);
    expect(rss.tagName).toBe('rss');
    expect(rss.getAttribute('version')).toBe('2.0');
    expect(rss.getAttribute('xmlns:g')).toBe('http://base.google.com/ns/1.0');
    expect(fields(elements(rss, 'channel')[0]!).title).toBe('feeds-one');
    const items = elements(rss, 'item').map(fields);
    expect(items.map((i) => i['g:id'])).toEqual([`p${ids.book}`, `s${ids.exposedSet}`]);
    expect(items[0]).toMatchObject({
      'g:title': 'Tom & Jerry <"Deluxe">',
      'g:description': 'A book with ]]> & <b>tags</b>',
      'g:link': `https://${shop.subdomain}.shop.example/products/${ids.book}`,
      'g:price': '49.99 PLN',
      'g:availability': 'in_stock',
      'g:condition': 'new',
      'g:gtin': '5901234123457',
      'g:brand': "Wydawnictwo 'Ą'",
    });
    expect(items[1]).toMatchObject({ 'g:description': 'Two books & more', 'g:price': '70.00 PLN', 'g:google_product_category': 'Media > Books' });
    expect(res.body).not.toContain('\u0001');
  });
});

describe('GET /store/v1/:subdomain/feeds/ceneo.xml', () => {
  it("is Ceneo's offers document with the same entries", async () => {
    const res = await store.get('/feeds/ceneo.xml');
    expect(res.statusCode).toBe(200);
    const root = parse(res.body);
    expect(root.tagName).toBe('offers');
    expect(root.getAttribute('version')).toBe('1');
    const offers = elements(root, 'o');
    expect(offers.map((o) => o.getAttribute('id'))).toEqual([`p${ids.book}`, `s${ids.exposedSet}`]);
    const [book, set] = offers;
    expect([book!.getAttribute('price'), book!.getAttribute('url'), book!.getAttribute('avail')]).toEqual(['49.99', `https://${shop.subdomain}.shop.example/products/${ids.book}`, '1']);
    expect(fields(book!)).toMatchObject({ name: 'Tom & Jerry <"Deluxe">', desc: 'A book with ]]> & <b>tags</b>' });
    expect(elements(book!, 'a').map((a) => [a.getAttribute('name'), a.textContent])).toEqual([
      ['Producent', "Wydawnictwo 'Ą'"],
      ['EAN', '5901234123457'],
    ]);
    expect(fields(set!)).toMatchObject({ name: expect.stringMatching(/^Set /), desc: 'Two books & more' });
    expect(set!.getAttribute('price')).toBe('70.00');
  });

  it('streams a catalogue larger than a page, every product once', async () => {
    const big = await createTestShop(stack.app, 'feeds-big');
    const count = FEED_PAGE_SIZE * 2 + 7;
    const em = stack.orm.em.fork();
    em.setFilterParams(SHOP_FILTER, { shopId: big.id });
    for (let n = 1; n <= count; n++) em.create(Product, { shop: big.id, name: `Item ${n}`, price: '1.00' });
    await em.flush();
    const res = await buyer(stack.app, big.subdomain).get('/feeds/ceneo.xml');
    expect(res.statusCode).toBe(200);
    const offers = elements(parse(res.body), 'o');
    expect(offers).toHaveLength(count);
    expect(new Set(offers.map((o) => o.getAttribute('id'))).size).toBe(count);
  });

  it('answers 404 for an unknown shop', async () => {
    expect((await buyer(stack.app, 'no-such-feed-shop').get('/feeds/ceneo.xml')).statusCode).toBe(404);
  });
});
