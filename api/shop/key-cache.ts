import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SHOP_KEY_CHANGES_CHANNEL, type ShopKeyRow } from '../../db/repositories/shop/shops.ts';
import { KeyCache } from '../shared/key-cache.ts';
import { listenForKeyChanges } from '../shared/key-changes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Recently used shop keys with their shops (api/shop/key-cache.ts); admin routes forget a shop's on change. */
    shopKeyCache: KeyCache<ShopKeyRow>;
  }
}

/**
 * The shop keys of recent requests with their shops (api/shared/key-cache.ts), so that a shop
 * request needs no statement to authenticate (issue 26). Only live keys of shops with the API on
 * are kept; a key's revocation and the shop's API switch are announced
 * (db/repositories/shop/shops.ts, SHOP_KEY_CHANGES_CHANNEL), and what else is kept (the shop's
 * subdomain, currency, time zone, the key's scopes) never changes.
 */
export const shopKeyCachePlugin = fp(
  async (app: FastifyInstance) => {
    const cache = new KeyCache<ShopKeyRow>(
      (row) => row.shop_id,
      (row) => !row.revoked && row.api_enabled,
    );
    app.decorate('shopKeyCache', cache);
    const listener = listenForKeyChanges(String(app.orm.config.get('clientUrl')), { channel: SHOP_KEY_CHANGES_CHANNEL, label: 'shop API key' }, cache, (m) => app.log.warn(m));
    await listener.ready;
    app.addHook('onClose', () => listener.close());
  },
  { name: 'shop-key-cache', dependencies: ['orm'] },
);
