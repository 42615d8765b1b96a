import { v5 as uuidv5 } from 'uuid';
import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import type { EffectiveTemplate } from '../../db/repositories/access/mail-templates.ts';
import { insertClaimedMail, insertPendingMail, mailAwaitingDelivery, type ClaimedMail } from '../../db/repositories/shared/mail-log.ts';
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
  /** Its id when the caller names it (`operationMailId`: an operation's retry finds it by id), else a new one. */
  id?: string;
}

/** Fixed namespace of `operationMailId`: changing it would rename the mails of operations still retrying. */
const OPERATION_MAIL_NAMESPACE = '2af2cfb2-d9bf-435c-9c84-fbdc998a3cca';

/**
 * The id an operation records its mail under `dedupeKey` with (a name-based uuid of both): every
 * retry of the operation names the same mail, so a retry after a commit whose reply was lost tells
 * its own mail from one recorded under the same key by another operation.
 */
export function operationMailId(operationKey: string, dedupeKey: string): string {
  return uuidv5(`${operationKey}/${dedupeKey}`, OPERATION_MAIL_NAMESPACE);
}

/** A mail claimed for sending, and when the claim was taken (`performance.now()`, for `attemptClaimedOnce`). */
export interface HeldClaim {
  mail: ClaimedMail;
  atMs: number;
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
  /** With `claimForSending`: the mail this call recorded, claimed for the caller's first attempt, and when (`performance.now()`). */
  claimed?: HeldClaim;
}

/**
 * The single place every mail is rendered and recorded in the mail log, as `pending`: the
 * network send is its own retried step (activities/mail-delivery.ts), so a caller's transaction
 * (e.g. the participant lock of an invitation) never waits on a provider. The same dedupe key
 * is recorded once. `claimForSending`: recorded as claimed (`sending`) by a caller that makes the
 * first attempt itself once its transaction committed, with what that attempt needs.
 */
export async function sendMail(em: Sql, { platformId, to, template, tags, dedupeKey, now, id }: OutgoingMail, opts: { claimForSending?: boolean } = {}): Promise<QueuedMail> {
  const { subject, html } = renderTemplate(template, tags);
  const row = {
    id,
    platformId,
    to,
    template: template.slug,
    subject: subject.slice(0, 255),
    html,
    dedupeKey,
    sentAt: now,
    senderName: template.senderName ?? null,
    senderEmail: template.senderEmail ?? null,
  };
  if (opts.claimForSending) {
    const claimed = await insertClaimedMail(em, row);
    if (claimed) return { recorded: true, mailId: claimed.id, claimed: { mail: claimed, atMs: performance.now() } };
  } else {
    const id = await insertPendingMail(em, row);
    if (id) return { recorded: true, mailId: id };
  }
  return { recorded: false, mailId: await mailAwaitingDelivery(em, platformId, dedupeKey) };
}
