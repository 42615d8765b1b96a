import { p } from '@mikro-orm/core';
import { tenantFilters } from '../../tenant.ts';
import { uuidPrimaryKey } from '../shared/base.ts';
import { Platform } from './platform.ts';

/**
 * The base schema of a row a platform owns: the uuid key, the owning platform and the tenant
 * filter (db/tenant.ts), written once. Spread into `defineEntity` with the entity's own properties:
 * `defineEntity({ name, tableName, ...platformOwned({ title: p.string() }) })`.
 */
export function platformOwned<P extends Record<string, unknown>>(properties: P) {
  return {
    filters: tenantFilters,
    properties: { ...uuidPrimaryKey(), platform: () => p.manyToOne(Platform).ref(), ...properties },
  };
}
