import type { EntityManager } from '@mikro-orm/postgresql';

/** The mail log (`mail_log`): every mail recorded once per dedupe key, then delivered. */

export interface PendingMail {
  platformId: string;
  to: string;
  template: string;
  subject: string;
  html: string;
  dedupeKey: string;
  sentAt: Date;
  senderName: string | null;
  senderEmail: string | null;
}

/** Records the mail as `pending` in one statement; its id, or undefined when the dedupe key was already recorded. */
export async function insertPendingMail(em: EntityManager, m: PendingMail): Promise<string | undefined> {
  const rows: { id: string }[] = await em.execute(
    `insert into mail_log (id, platform_id, "to", template, subject, html, dedupe_key, sent_at, sender_name, sender_email, status)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')
     on conflict (platform_id, dedupe_key) do nothing
     returning id`,
    [m.platformId, m.to, m.template, m.subject, m.html, m.dedupeKey, m.sentAt, m.senderName, m.senderEmail],
  );
  return rows[0]?.id;
}

/** The id of the mail recorded under this dedupe key when it was not delivered yet (pending, sending or failed), else null. */
export async function mailAwaitingDelivery(em: EntityManager, platformId: string, dedupeKey: string): Promise<string | null> {
  const rows: { id: string }[] = await em.execute(
    `select id from mail_log where platform_id = ? and dedupe_key = ? and status in ('pending', 'sending', 'failed')`,
    [platformId, dedupeKey],
  );
  return rows[0]?.id ?? null;
}
