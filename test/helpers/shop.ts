/** Shops for tests, made through the operator API as the panel would. */
import type { App } from '../../api/app.ts';
import { SHOP_SCOPES, type ShopScope } from '../../domain/shop/scopes.ts';
import { ADMIN_TOKEN } from './stack.ts';
import { randomUUID } from 'node:crypto';

export const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };

export interface TestShop {
  id: string;
  /** Its storefront is at `/store/v1/<subdomain>`. */
  subdomain: string;
  /** A key holding every scope. */
  key: string;
  /** One key per single scope. */
  keys: Record<ShopScope, string>;
  /** Headers for a shop request with the all-scopes key (or `scope`'s key), JSON body. */
  headers(scope?: ShopScope): Record<string, string>;
  /** Statuses by name (`New`, `Paid`, ...). */
  statuses: Record<string, number>;
}

export async function adminPost<T = any>(app: App, url: string, payload: unknown): Promise<T> {
  const res = await app.inject({ method: 'POST', url, headers: operator, payload: payload as object });
  if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json().data as T;
}

/** A new shop with a key for every scope and one holding all of them. */
export async function createTestShop(app: App, name = 'shop'): Promise<TestShop> {
  const subdomain = `${name}-${randomUUID().slice(0, 8)}`.toLowerCase();
  const shop = await adminPost(app, '/admin/v1/shops', { subdomain, name });
  const makeKey = async (scopes: ShopScope[]) => (await adminPost(app, `/admin/v1/shops/${shop.id}/api_keys`, { name: scopes.join('+'), scopes })).token as string;
  const key = await makeKey([...SHOP_SCOPES]);
  const keys = Object.fromEntries(await Promise.all(SHOP_SCOPES.map(async (scope) => [scope, await makeKey([scope])]))) as Record<ShopScope, string>;
  const res = await app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/order_statuses`, headers: operator });
  const statuses = Object.fromEntries((res.json().data as { id: number; name: string }[]).map((s) => [s.name, s.id]));
  return {
    id: shop.id,
    subdomain,
    key,
    keys,
    statuses,
    headers: (scope) => ({ 'x-api-key': scope ? keys[scope] : key, 'content-type': 'application/json' }),
  };
}
