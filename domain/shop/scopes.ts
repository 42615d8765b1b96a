/**
 * Shop API key scopes (spec: Authentication; DESIGN.md section 7). Each route names the one scope
 * it needs; a key opens exactly the routes of its scopes, so `write_subscriptions` sees no
 * products, orders or configuration and `write_data` cannot touch billing.
 */
export const SHOP_SCOPES = ['read', 'write_data', 'write_subscriptions', 'write_config', 'write_storefront'] as const;
export type ShopScope = (typeof SHOP_SCOPES)[number];

export function shopScopeAllows(granted: readonly ShopScope[], required: ShopScope): boolean {
  return granted.includes(required);
}
