import { p } from '@mikro-orm/core';
import { shopFilters } from '../../tenant.ts';
import { uuidPrimaryKey } from '../shared/base.ts';
import { Shop } from './shop.ts';

/** The serial key of the shop's resources (the spec gives them integer ids). */
export const serialPrimaryKey = () => ({ id: p.integer().primary().autoincrement() });

const ownedByShop = <K extends object, P extends Record<string, unknown>>(key: K, properties: P) => ({
  filters: shopFilters,
  properties: { ...key, shop: () => p.manyToOne(Shop).ref(), ...properties },
});

/**
 * The base schema of a row a shop owns: the serial key, the owning shop and the shop filter
 * (db/tenant.ts), written once. Spread into `defineEntity` with the entity's own properties, like
 * `platformOwned` on the platform's side.
 */
export const shopOwned = <P extends Record<string, unknown>>(properties: P) => ownedByShop(serialPrimaryKey(), properties);

/** The same with a uuid key, for rows whose id must not be guessable (files, mails). */
export const shopOwnedByUuid = <P extends Record<string, unknown>>(properties: P) => ownedByShop(uuidPrimaryKey(), properties);
