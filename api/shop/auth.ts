import type { FastifyRequest } from 'fastify';
import { findShopApiKeyByHash } from '../../db/repositories/shop/shops.ts';
import { SHOP_FILTER } from '../../db/tenant.ts';
import { shopScopeAllows, type ShopScope } from '../../domain/shop/scopes.ts';
import { unauthorized } from '../shared/errors.ts';
import { scopedKeyOf, type ScopedKeyAuthOptions } from '../shared/scoped-key-auth.ts';
import { hashToken } from '../shared/tokens.ts';

export interface AuthenticatedShopKey {
  id: string;
  prefix: string;
  scopes: ShopScope[];
  shopId: string;
  /** The shop's subdomain (its storefront's address). */
  subdomain: string;
  currency: string;
  /** The shop's IANA time zone: calendar days of filters and reports are its days. */
  timeZone: string;
}

/**
 * The shop key of a request, from `X-API-KEY`: unknown, revoked, or of a shop whose owner switched
 * the API off gives 401 (checked on every request, so the switch acts at once). The request's
 * entity manager is then scoped to the key's shop.
 */
async function authenticate(request: FastifyRequest, token: string): Promise<AuthenticatedShopKey> {
  // Looked up before the request has a tenant, hence without the tenant filter.
  const key = await findShopApiKeyByHash(request.em, hashToken(token));
  if (!key) throw unauthorized('invalid shop API key');
  const shop = key.shop.getEntity();
  // Configuration requests of a known shop land in its audit log, refused ones included.
  if (isShopConfigurationPath(request.url)) request.auditSubject = { tenantId: shop.id, keyPrefix: key.prefix };
  if (key.revokedAt) throw unauthorized('invalid shop API key');
  if (!shop.apiEnabled) throw unauthorized('API access is switched off for this shop');
  request.em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
  return { id: key.id, prefix: key.prefix, scopes: key.scopes, shopId: shop.id, subdomain: shop.subdomain, currency: shop.currency, timeZone: shop.timeZone };
}

/** The shop's configuration paths (club, order statuses, mail sequences): the audited ones. */
export function isShopConfigurationPath(url: string): boolean {
  return url.startsWith('/api/v1/configuration/');
}

/** Options of `scopedKeyAuth` for the shop interface: shop keys and their five scopes. */
export const shopKeys: ScopedKeyAuthOptions<AuthenticatedShopKey> = {
  label: 'shop API key',
  keyScheme: 'shopKey',
  authenticate,
  allows: (scopes, required) => shopScopeAllows(scopes, required as ShopScope),
};

/** The authenticated key (and so the shop) of a shop request. */
export function shopKeyOf(request: FastifyRequest): AuthenticatedShopKey {
  return scopedKeyOf<AuthenticatedShopKey>(request);
}
