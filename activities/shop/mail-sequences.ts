import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { paidStatusIdOnce } from '../../db/repositories/shop/step-reads.ts';
import { findMailSequence, firstPlanEntries, hasEarlierOrder, mailSequenceItem, mailSequenceOf, sequencesForTrigger, startRuleOf, triggersOf } from '../../db/repositories/shop/mail-sequences.ts';
import { findSender } from '../../db/repositories/shop/reference.ts';
import { loadShop } from '../../db/repositories/shop/shops.ts';
import type { OrderFacts } from '../../db/repositories/shop/order-facts.ts';
import { erasedSince } from '../../db/repositories/shared/personal-data/erasures.ts';
import { personalEmailHash } from '../../db/repositories/shared/personal-data/salt.ts';
import { recipientCode } from '../../db/repositories/shop/recipient-codes.ts';
import { sequenceRecipientAddress, type SequenceRecipientRow } from '../../db/repositories/shop/sequence-recipients.ts';
import { DEFAULT_MAIL_ENDPOINTS } from '../../domain/shared/mail-endpoints.ts';
import { orderStartsSequence, sendInstant, triggerStillSet, usesTag, type OrderTriggerFacts, type SequenceTrigger } from '../../domain/shop/mail-sequence-rules.ts';
import { fillTags, orderMailTags } from '../../domain/shop/mail-tags.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';
import { sendShopMailOnce } from './shop-mail-send.ts';

/** Who a run mails: the address's keyed hash (the run's id, the erasure check) and the row each send reads the address from. */
export interface SequenceRecipient {
  hash: string;
  row: SequenceRecipientRow;
}

/**
 * The recipient as a run's input or an activity's result names it: `recipient` since issue 41
 * item 3; inputs and results recorded before hold the lower-cased address in `email` instead
 * (the run's id carries it too), and workflow code still reads them on replay.
 */
export interface RecordedRecipient {
  recipient?: SequenceRecipient;
  email?: string;
}

/** One recipient's run of one sequence (workflows/shop/mail-sequence.ts). */
export interface MailSequenceRun extends RecordedRecipient {
  shopId: string;
  sequenceId: number;
  trigger: SequenceTrigger;
  /** When the trigger happened (ISO 8601): the offsets count from it. */
  triggeredAt: string;
}

/** A customer's first entry into a subscription plan, with the sequences that entry starts. */
export interface SubscriptionEntrySequences extends RecordedRecipient {
  subscriptionPlanId: number;
  sequenceIds: number[];
}

export interface PlannedMessage {
  itemId: number;
  /** ISO 8601. */
  sendAt: string;
}

/** The sequences an order's status starts, and its buyer as the runs name them. */
export interface OrderMailSequences extends RecordedRecipient {
  statusId: number;
  sequenceIds: number[];
}

/** What a send did: `sent` (now or before), `stopped` (sequence off or trigger removed: no more messages), `skipped` (the message was removed). */
export type SequenceSendOutcome = 'sent' | 'stopped' | 'skipped';

/**
 * The message's key in the shop's mail log, `sequence/<id>/<email>/item/<item id>`; an address
 * too long for the key's 255 characters is replaced by its SHA-256.
 */
export function sequenceMailKey(run: { sequenceId: number; email: string; itemId: number }): string {
  const key = `sequence/${run.sequenceId}/${run.email}/item/${run.itemId}`;
  return key.length <= 255 ? key : `sequence/${run.sequenceId}/sha256:${createHash('sha256').update(run.email).digest('hex')}/item/${run.itemId}`;
}

/** The run's recipient as its row says now (an older run: the address of its input); null: the row is gone. */
async function recipientOf(em: EntityManager, run: MailSequenceRun): Promise<{ email: string; hash: string } | null> {
  if (!run.recipient) return run.email ? { email: run.email, hash: await personalEmailHash(em, run.email) } : null;
  const email = await sequenceRecipientAddress(em, run.shopId, run.recipient.row);
  return email === null ? null : { email, hash: run.recipient.hash };
}

/** What the trigger check knows of the order at `statusId`. */
async function triggerFacts(em: EntityManager, shopId: string, facts: OrderFacts, statusId: number): Promise<OrderTriggerFacts> {
  return {
    statusId,
    productIds: facts.items.flatMap((item) => (item.productId == null ? [] : [item.productId])),
    discountCodeId: facts.order.discountCodeId ?? null,
    firstPurchase: !(await hasEarlierOrder(em, shopId, facts.order.email.trim().toLowerCase(), facts.order.id)),
  };
}

/** The shop's mail sequences at run time: which start on a trigger, when each message goes, and each send. */
export function mailSequenceActivities({ orm, now = () => new Date(), mailEndpoints = DEFAULT_MAIL_ENDPOINTS }: ActivityDeps, db: ActivityDb = unitsOfWork(orm)) {
  const { orderFacts: factsOf } = db.reads;
  return {
    /**
     * The sequences an order reaching `statusId` (null: the shop's Paid status) starts (status, product and code narrowing,
     * `only_first_purchase`), and the buyer as the runs name them (never the address: the result is in the workflow's history).
     */
    async orderMailSequences({ shopId, orderId, statusId: reached }: { shopId: string; orderId: number; statusId: number | null }): Promise<OrderMailSequences> {
      const em = db.shopEm(shopId);
      const facts = await factsOf(em, orderId);
      if (!facts) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
      const statusId = reached ?? (await paidStatusIdOnce(db.reads, em, shopId));
      const candidates = await sequencesForTrigger(em, shopId, { kind: 'order_status', statusId, orderId });
      const orderFacts = candidates.length === 0 ? null : await triggerFacts(em, shopId, facts, statusId);
      const sequenceIds = orderFacts ? candidates.filter((s) => orderStartsSequence(s, orderFacts)).map((s) => s.id) : [];
      const recipient = { hash: await personalEmailHash(em, facts.order.email), row: { kind: 'order' as const, orderId } };
      return { recipient, statusId, sequenceIds };
    },

    /**
     * For new subscribers: those that are the customer's first entry into their plan, each with the
     * active sequences of `first_subscription_entry` on that plan.
     */
    async subscriptionEntryMailSequences({ shopId, subscriberIds }: { shopId: string; subscriberIds: number[] }): Promise<SubscriptionEntrySequences[]> {
      const em = db.shopEm(shopId);
      const entries = await firstPlanEntries(em, shopId, subscriberIds);
      return Promise.all(
        entries.map(async ({ id: subscriberId, email, plan_id: subscriptionPlanId }) => ({
          recipient: { hash: await personalEmailHash(em, email), row: { kind: 'subscriber' as const, subscriberId } },
          subscriptionPlanId,
          sequenceIds: (await sequencesForTrigger(em, shopId, { kind: 'subscription_entry', subscriptionPlanId })).map((s) => s.id),
        })),
      );
    },

    /** When each message of the sequence goes for a run, in sending order (the shop's zone and `sending_time` for days). */
    async planMailSequence(run: MailSequenceRun): Promise<PlannedMessage[]> {
      const em = db.shopEm(run.shopId);
      const found = await findMailSequence(em, run.sequenceId);
      if (!found) return [];
      const { sequence, items } = found;
      const shop = await loadShop(em, run.shopId);
      const triggeredAt = new Date(run.triggeredAt);
      return items
        .map((item) => ({ itemId: item.id, sendAt: sendInstant(triggeredAt, item, sequence.sendingTime, shop.timeZone).toISOString() }))
        .sort((a, b) => a.sendAt.localeCompare(b.sendAt));
    },

    /**
     * Sends one message of a run, once: re-checks that the sequence is on and still has the
     * trigger that started the run, and for an order's run that the order still meets it with the
     * sequence's narrowing as it is now (else `stopped`), fills the tags (`{{EMAIL}}`, the order's tags
     * for an order trigger, `{{KOD_RABATOWY}}` with the recipient's own code when enabled) and
     * records it in the shop's mail log under `sequence/<id>/<email>/item/<item id>`.
     */
    async sendMailSequenceItem(input: MailSequenceRun & { itemId: number }): Promise<SequenceSendOutcome> {
      const em = db.shopEm(input.shopId);
      const sequence = await mailSequenceOf(em, input.sequenceId);
      if (!sequence || !sequence.active || !triggerStillSet(triggersOf(sequence), input.trigger)) return 'stopped';
      const recipient = await recipientOf(em, input);
      // The recipient's data was erased since the run began (issue 29), or its row is gone: nothing more is sent.
      if (!recipient || (await erasedSince(em, 'shop', input.shopId, recipient.hash, new Date(input.triggeredAt)))) return 'stopped';
      const run = { ...input, email: recipient.email };
      const key = sequenceMailKey(run);
      const facts = run.trigger.kind === 'order_status' ? await factsOf(em, run.trigger.orderId) : null;
      // An order's run goes on only while the order still meets the sequence's trigger as it is now
      // (product and discount code narrowing, first purchase may have changed since the start).
      if (run.trigger.kind === 'order_status' && (!facts || !orderStartsSequence(startRuleOf(sequence), await triggerFacts(em, run.shopId, facts, run.trigger.statusId)))) return 'stopped';
      const item = await mailSequenceItem(em, sequence.id, run.itemId);
      if (!item) return 'skipped';
      const sender = sequence.senderId ? await findSender(em, sequence.senderId) : null;
      const address = (facts?.order.deliveryAddress ?? facts?.order.invoiceAddress ?? {}) as Record<string, string | undefined>;
      const tags = {
        ...orderMailTags(
          facts && {
            ordinalNumber: facts.order.ordinalNumber,
            email: run.email,
            firstName: address.first_name ?? '',
            lastName: address.last_name ?? '',
            total: facts.order.total,
            currency: facts.order.currency,
            statusName: facts.status.name,
            trackingNumber: facts.order.trackingNumber ?? '',
            deliveryMethod: facts.order.deliveryMethod ?? '',
          },
        ),
        EMAIL: run.email,
        // The code is made only for a message that shows it.
        KOD_RABATOWY:
          sequence.recipientDiscountCode.enabled && usesTag(`${item.subject}${item.content}`, 'KOD_RABATOWY')
            ? await recipientCode(em, run.shopId, sequence.id, run.email, sequence.recipientDiscountCode, now())
            : '',
      };
      await sendShopMailOnce(em, mailEndpoints, now(), {
        shopId: run.shopId,
        key,
        kind: 'sequence',
        messageId: `<shop-sequence-${sequence.id}.${item.id}.${Buffer.from(run.email).toString('hex')}.${run.shopId}@shop>`,
        from: { address: sender?.email ?? 'no-reply@shop.invalid', name: sender?.name ?? '' },
        to: run.email,
        subject: fillTags(item.subject, tags),
        html: fillTags(item.content, tags),
      });
      return 'sent';
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<MailSequenceActivities>(profile)` (workflows/shared/activities-of.ts). */
export type MailSequenceActivities = ReturnType<typeof mailSequenceActivities>;
