import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from '../access/platform-owned.ts';
import type { MailSender, MailStatus } from '../../../domain/shared/mail-delivery.ts';

/**
 * Every mail the platform sends. `dedupeKey` makes a send idempotent: a retried activity or a
 * concurrent grant finds the row and does not send a second time.
 */
export const MailLogEntry = defineEntity({
  name: 'MailLogEntry',
  tableName: 'mail_log',
  uniques: [{ properties: ['platform', 'dedupeKey'] }],
  indexes: [{ properties: ['platform', 'to'] }],
  ...platformOwned({
    to: p.string(),
    template: p.string(),
    subject: p.string(),
    html: p.text(),
    dedupeKey: p.string(),
    /** When the mail was recorded (the operator API's `sent_at`); delivery is `deliveredAt`. */
    sentAt: p.datetime().onCreate(() => new Date()),
    /** The template's own sender, when it has one (the delivery falls back to the platform's). */
    senderName: p.string().nullable(),
    senderEmail: p.string().nullable(),
    /** `pending` -> `sending` -> `sent` | `failed` (retried) | `recorded` (no transport): domain/mail-delivery.ts. */
    status: p.string().$type<MailStatus>().length(16).default('pending'),
    /** Who delivered it: `provider_a`, `provider_b`, `provider_c` or `platform` (the default transport). */
    provider: p.string().$type<MailSender>().length(16).nullable(),
    providerMessageId: p.string().nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    deliveredAt: p.datetime().nullable(),
    /** When a delivery attempt claimed the mail (`sending`); a claim older than an attempt's timeout may be taken over. */
    claimedAt: p.datetime().nullable(),
  }),
});
export type IMailLogEntry = InferEntity<typeof MailLogEntry>;
