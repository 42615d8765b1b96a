import type { FastifyRequest } from 'fastify';
import { shopKeyByHash } from '../../db/repositories/shop/shops.ts';
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
 * the API off gives 401 (checked on every request, so the switch acts at once: a switch or a
 * revocation is announced to the key cache of every instance, api/shop/key-cache.ts). The
 * request's entity manager is then scoped to the key's shop.
 */
async function authenticate(request: FastifyRequest, token: string): Promise<AuthenticatedShopKey> {
  const keyHash = hashToken(token);
  // Looked up before the request has a tenant, hence naming no shop.
  const key = await request.server.shopKeyCache.lookup(keyHash, () => shopKeyByHash(request.em, keyHash));
  if (!key) throw unauthorized('invalid shop API key');
  // Configuration requests of a known shop land in its audit log, refused ones included.
  if (isShopConfigurationPath(request.url)) request.auditSubject = { tenantId: key.shop_id, keyPrefix: key.prefix };
  if (key.revoked) throw unauthorized('invalid shop API key');
  if (!key.api_enabled) throw unauthorized('API access is switched off for this shop');
  request.em.setFilterParams(SHOP_FILTER, { shopId: key.shop_id });
  return { id: key.key_id, prefix: key.prefix, scopes: key.scopes, shopId: key.shop_id, subdomain: key.subdomain, currency: key.currency, timeZone: key.time_zone };
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
