import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { tenantFilters } from '../tenant.ts';
import { Platform } from './platform.ts';

/**
 * Every mail the platform sends. `dedupeKey` makes a send idempotent: a retried activity or a
 * concurrent grant finds the row and does not send a second time.
 */
export const MailLogEntry = defineEntity({
  name: 'MailLogEntry',
  tableName: 'mail_log',
  filters: tenantFilters,
  uniques: [{ properties: ['platform', 'dedupeKey'] }],
  indexes: [{ properties: ['platform', 'to'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    platform: () => p.manyToOne(Platform).ref(),
    to: p.string(),
    template: p.string(),
    subject: p.string(),
    html: p.text(),
    dedupeKey: p.string(),
    sentAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IMailLogEntry = InferEntity<typeof MailLogEntry>;
