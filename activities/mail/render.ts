import type { EntityManager } from '@mikro-orm/postgresql';
import type { EffectiveTemplate } from '../../db/repositories/access/mail-templates.ts';
import { renderTemplate, type MailTags } from '../../domain/access/mail-templates.ts';

export interface OutgoingMail {
  platformId: string;
  to: string;
  /** Its sender fields are for the delivery; the mail log keeps slug, subject and body. */
  template: Pick<EffectiveTemplate, 'slug' | 'subject' | 'description' | 'senderName' | 'senderEmail'>;
  tags: MailTags;
  /** The same key never sends twice (a retried activity, a repeated trigger). */
  dedupeKey: string;
  now: Date;
}

export interface QueuedMail {
  /** This call recorded the mail (false: the dedupe key was already recorded). */
  recorded: boolean;
  /**
   * The mail log id while the mail still awaits delivery (also when an earlier call recorded it and
   * the delivery did not happen yet), else null. The caller's workflow hands it to the delivery
   * workflow (workflows/mail-delivery.ts), which sends it through the platform's transport.
   */
  mailId: string | null;
}

/**
 * The single place every mail is rendered and recorded in the mail log, as `pending`: the
 * network send is its own retried step (activities/mail-delivery.ts), so a caller's transaction
 * (e.g. the participant lock of an invitation) never waits on a provider. The same dedupe key
 * is recorded once.
 */
export async function sendMail(em: EntityManager, { platformId, to, template, tags, dedupeKey, now }: OutgoingMail): Promise<QueuedMail> {
  const { subject, html } = renderTemplate(template, tags);
  const rows: { id: string }[] = await em.execute(
    `insert into mail_log (id, platform_id, "to", template, subject, html, dedupe_key, sent_at, sender_name, sender_email, status)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')
     on conflict (platform_id, dedupe_key) do nothing
     returning id`,
    [platformId, to, template.slug, subject.slice(0, 255), html, dedupeKey, now, template.senderName ?? null, template.senderEmail ?? null],
  );
  const id = rows[0]?.id;
  if (id) return { recorded: true, mailId: id };
  return { recorded: false, mailId: await mailAwaitingDelivery(em, platformId, dedupeKey) };
}

/** The id of the mail recorded under this dedupe key when it was not delivered yet (pending, sending or failed), else null. */
export async function mailAwaitingDelivery(em: EntityManager, platformId: string, dedupeKey: string): Promise<string | null> {
  const rows: { id: string }[] = await em.execute(
    `select id from mail_log where platform_id = ? and dedupe_key = ? and status in ('pending', 'sending', 'failed')`,
    [platformId, dedupeKey],
  );
  return rows[0]?.id ?? null;
}
