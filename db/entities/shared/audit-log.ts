import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantFilters } from '../../tenant.ts';
import { Platform } from '../access/platform.ts';

/** One configuration request, rejected ones included. Holds a key prefix, never a token or a body. */
export const AuditLogEntry = defineEntity({
  name: 'AuditLogEntry',
  tableName: 'audit_log',
  filters: tenantFilters,
  indexes: [{ properties: ['platform', 'at'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    at: p.datetime(),
    method: p.string().length(10),
    path: p.text(),
    status: p.smallint(),
    keyPrefix: p.string().length(16).nullable(),
  },
});
export type IAuditLogEntry = InferEntity<typeof AuditLogEntry>;
