/**
 * The shop parts' data, made as the panel and a shop's own code would make it: a shop through the
 * operator API (`/admin/v1`), its catalogue and settings through the shop API (`/api/v1`) with a
 * key holding every scope; orders through the operator API (as the tests place them).
 */
import { randomUUID } from 'node:crypto';
import { SHOP_SCOPES } from '../../domain/shop/scopes.ts';

export interface BenchShop {
  id: string;
  subdomain: string;
  /** A key with every scope. */
  key: string;
  /** Statuses by name (`New`, `Paid`, ...). */
  statuses: Record<string, number>;
  /** A call of the operator API; the reply's `data`. */
  operator<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** A call of the shop API with the key; the reply's `data`. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

async function call<T>(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${new URL(url).pathname}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: T }).data;
}

export async function createBenchShop(apiUrl: string, adminToken: string, name: string): Promise<BenchShop> {
  const operator = <T>(method: string, path: string, body?: unknown) => call<T>(`${apiUrl}/admin/v1${path}`, method, { authorization: `Bearer ${adminToken}` }, body);
  const subdomain = `bench-${name}-${randomUUID().slice(0, 8)}`;
  const shop = await operator<{ id: string }>('POST', '/shops', { subdomain, name: `Bench ${name}` });
  const { token } = await operator<{ token: string }>('POST', `/shops/${shop.id}/api_keys`, { name: 'bench', scopes: [...SHOP_SCOPES] });
  const statuses = Object.fromEntries((await operator<{ id: number; name: string }[]>('GET', `/shops/${shop.id}/order_statuses`)).map((s) => [s.name, s.id]));
  return {
    id: shop.id,
    subdomain,
    key: token,
    statuses,
    operator: (method, path, body) => operator(method, path.replace(':shop', shop.id), body),
    api: (method, path, body) => call(`${apiUrl}/api/v1${path}`, method, { 'x-api-key': token }, body),
  };
}

/** A product (active, 23 % VAT); returns its id. */
export async function createProduct(shop: BenchShop, fields: { name: string; price: string; electronic?: boolean }): Promise<number> {
  const product = await shop.api<{ id: number }>('POST', '/products', { name: fields.name, price: fields.price, sku: fields.name.toUpperCase().replace(/\W+/g, '-'), electronic_product: fields.electronic ?? false });
  return product.id;
}

/** The smallest file the e-book upload recognises as a PDF. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'.padEnd(1000, ' '), 'latin1');

/** An e-book product: electronic, with a PDF to download (no watermark). */
export async function createEbook(shop: BenchShop, name: string, price: string): Promise<number> {
  const productId = await createProduct(shop, { name, price, electronic: true });
  await shop.api('POST', `/products/${productId}/electronic_contents`, {
    file: { filename: 'book.pdf', content_type: 'application/pdf', data: PDF.toString('base64') },
    days_to_expire: 14,
    usages_to_expire: 3,
  });
  return productId;
}

/** A placed order (status New, unpaid) through the operator API. */
export async function placeOrder(shop: BenchShop, email: string, items: { product_id: number; quantity?: number }[]): Promise<{ id: number; ordinal_number: number }> {
  return shop.operator<{ id: number; ordinal_number: number }>('POST', '/shops/:shop/orders', { email, items });
}
