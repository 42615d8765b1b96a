import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from '../access/platform-owned.ts';

/** One configuration request, rejected ones included. Holds a key prefix, never a token or a body. */
export const AuditLogEntry = defineEntity({
  name: 'AuditLogEntry',
  tableName: 'audit_log',
  indexes: [{ properties: ['platform', 'at'] }],
  ...platformOwned({
    at: p.datetime(),
    method: p.string().length(10),
    path: p.text(),
    status: p.smallint(),
    keyPrefix: p.string().length(16).nullable(),
  }),
});
export type IAuditLogEntry = InferEntity<typeof AuditLogEntry>;
