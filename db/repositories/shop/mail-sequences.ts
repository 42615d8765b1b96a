/**
 * Mail sequences of one shop (the entity manager is scoped to it by the shop filter; raw SQL names
 * the shop itself): reads with their items, the operator's creation, the id checks of a PATCH, and
 * the sequences a trigger starts.
 */
import { LockMode, type EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DiscountCode, MailSequence, MailSequenceItem, OrderStatus, Product, Sender, type IMailSequence, type IMailSequenceItem } from '../../entities/shop/index.ts';
import { DEFAULT_RECIPIENT_CODE, type ItemTiming, type SequenceTrigger, type SequenceTriggers } from '../../../domain/shop/mail-sequence-rules.ts';
import type { ListWindow } from './reference.ts';
import type { Sql } from '../shared/pooled-transaction.ts';

/** The stored columns that decide whether a sequence starts. */
type StartColumns = Pick<IMailSequence, 'onlyFirstPurchase' | 'statusId' | 'productsDependent' | 'productIds' | 'discountCodeId' | 'subscriptionPlanId' | 'newsletterSubscription' | 'firstSubscriptionEntry'>;

/** The stored trigger columns as the rules see them. */
export function triggersOf(s: Omit<StartColumns, 'onlyFirstPurchase'>): SequenceTriggers {
  return {
    statusId: s.statusId ?? null,
    productsDependent: s.productsDependent,
    productIds: [...s.productIds],
    discountCodeId: s.discountCodeId ?? null,
    subscriptionPlanId: s.subscriptionPlanId ?? null,
    newsletterSubscription: s.newsletterSubscription,
    firstSubscriptionEntry: s.firstSubscriptionEntry,
  };
}

/** What decides whether a stored sequence starts for an order: its triggers and its first-purchase rule. */
export const startRuleOf = (s: StartColumns): Omit<TriggeredSequence, 'id'> => ({ triggers: triggersOf(s), onlyFirstPurchase: s.onlyFirstPurchase });

export interface SequenceWithItems {
  sequence: IMailSequence;
  items: IMailSequenceItem[];
}

async function withItems(em: EntityManager, sequences: IMailSequence[]): Promise<SequenceWithItems[]> {
  const items = sequences.length ? await em.find(MailSequenceItem, { sequence: { $in: sequences.map((s) => s.id) } }, { orderBy: { position: 'asc', id: 'asc' } }) : [];
  return sequences.map((sequence) => ({ sequence, items: items.filter((item) => item.sequence.id === sequence.id) }));
}

export async function listMailSequences(em: EntityManager, window: ListWindow): Promise<[SequenceWithItems[], number]> {
  const [rows, total] = await em.findAndCount(MailSequence, {}, { orderBy: { id: 'asc' }, ...window });
  return [await withItems(em, rows), total];
}

/**
 * A sequence of the shop with its items; null for another shop's or an unknown id. `forUpdate`
 * (inside a transaction) locks the row, so two PATCHes check and write one after the other.
 */
export async function findMailSequence(em: EntityManager, id: number, forUpdate = false): Promise<SequenceWithItems | null> {
  const sequence = await em.findOne(MailSequence, { id }, forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {});
  return sequence ? (await withItems(em, [sequence]))[0]! : null;
}

export interface NewSequenceItem extends ItemTiming {
  subject: string;
  content: string;
}

/** The operator's sequence, with its items in the order sent, in one flush; no triggers yet. */
export async function createMailSequence(em: EntityManager, shopId: string, input: { name: string; senderId: number | null; items: NewSequenceItem[] }): Promise<SequenceWithItems> {
  const sequence = em.create(MailSequence, { shop: shopId, name: input.name, senderId: input.senderId, recipientDiscountCode: DEFAULT_RECIPIENT_CODE });
  const items = input.items.map((item, position) => em.create(MailSequenceItem, { shop: shopId, sequence, position, ...item }));
  await em.flush();
  return { sequence, items };
}

/** Whether the shop has these rows (each check answers false for another shop's id). */
/** Writes the fields given to the sequence (checked by the caller). */
export async function updateMailSequence(em: EntityManager, sequence: IMailSequence, values: EntityData<IMailSequence>): Promise<void> {
  em.assign(sequence, values);
  await em.flush();
}

/**
 * Deletes the shop's sequence with its messages (its recipients' codes go by the foreign key; the
 * codes themselves and the mail log stay); false for another shop's or an unknown id. Under the
 * row's lock, so a send that reads the sequence after the commit finds it gone.
 */
export function deleteMailSequence(em: EntityManager, id: number): Promise<boolean> {
  return em.transactional(async (tx) => {
    const sequence = await tx.findOne(MailSequence, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!sequence) return false;
    await tx.nativeDelete(MailSequenceItem, { sequence: id });
    tx.remove(sequence);
    return true;
  });
}

export const shopHas = {
  sender: async (em: EntityManager, id: number) => (await em.count(Sender, { id })) > 0,
  status: async (em: EntityManager, id: number) => (await em.count(OrderStatus, { id })) > 0,
  /** The shop's discount code of kind extra contents (`free_contents`); the only codes that narrow a sequence. */
  extraContentsCode: async (em: EntityManager, id: number) => (await em.count(DiscountCode, { id, discountType: 'free_contents' })) > 0,
  subscriptionPlan: async (em: EntityManager, shopId: string, id: number) =>
    (await em.execute<{ n: number }[]>('select 1 as n from shop_subscription_plans where shop_id = ? and id = ?', [shopId, id])).length > 0,
};

/**
 * The sent ids that are products of the shop a list may name: visible ones, and hidden ones the
 * list already holds (a product with orders is hidden, not deleted, and stays where it was listed,
 * so sending the same list back is not refused).
 */
export async function knownProductIds(em: EntityManager, ids: readonly number[], listed: readonly number[] = []): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await em.find(Product, { id: { $in: [...ids] } }, { fields: ['id', 'hidden'] });
  return new Set(rows.filter((row) => !row.hidden || listed.includes(row.id)).map((row) => row.id));
}

/** A sequence as a trigger finds it: enough to decide whether it starts. */
export interface TriggeredSequence {
  id: number;
  onlyFirstPurchase: boolean;
  triggers: SequenceTriggers;
}

/**
 * The shop's active sequences that may start on this trigger (the order narrowing is decided by
 * the caller), in one plain statement: a clearing asks on its hot path.
 */
export async function sequencesForTrigger(sql: Sql, shopId: string, trigger: SequenceTrigger): Promise<TriggeredSequence[]> {
  const [condition, values] =
    trigger.kind === 'order_status'
      ? ['status_id = ?', [trigger.statusId]]
      : trigger.kind === 'newsletter'
        ? ['newsletter_subscription', []]
        : ['first_subscription_entry and subscription_plan_id = ?', [trigger.subscriptionPlanId]];
  const rows = await sql.execute<(StartColumns & { id: number })[]>(
    `select id, only_first_purchase as "onlyFirstPurchase", status_id as "statusId", products_dependent as "productsDependent", product_ids as "productIds",
            discount_code_id as "discountCodeId", subscription_plan_id as "subscriptionPlanId", newsletter_subscription as "newsletterSubscription",
            first_subscription_entry as "firstSubscriptionEntry"
       from shop_mail_sequences where shop_id = ? and active and ${condition} order by id`,
    [shopId, ...values],
  );
  return rows.map((row) => ({ id: row.id, ...startRuleOf(row) }));
}

/** Whether `email` placed an order in the shop before `orderId` (for `only_first_purchase`). */
export async function hasEarlierOrder(em: EntityManager, shopId: string, email: string, orderId: number): Promise<boolean> {
  const rows = await em.execute<{ n: number }[]>('select 1 as n from shop_orders where shop_id = ? and lower(email) = lower(?) and id < ? limit 1', [shopId, email, orderId]);
  return rows.length > 0;
}

/**
 * The subscribers among `subscriberIds` that are their customer's first entry into their plan (no
 * earlier subscriber of the same address and plan), with address and plan.
 */
export function firstPlanEntries(em: EntityManager, shopId: string, subscriberIds: readonly number[]): Promise<{ id: number; email: string; plan_id: number }[]> {
  if (subscriberIds.length === 0) return Promise.resolve([]);
  return em.execute(
    `select s.id, lower(s.email) as email, s.plan_id from shop_subscribers s
      where s.shop_id = ? and s.id in (?)
        and not exists (select 1 from shop_subscribers e where e.shop_id = s.shop_id and e.plan_id = s.plan_id and lower(e.email) = lower(s.email) and e.id < s.id)`,
    [shopId, [...subscriberIds]],
  );
}

/** The sequence alone (no items), or null for another shop's or an unknown id. */
export function mailSequenceOf(em: EntityManager, id: number): Promise<IMailSequence | null> {
  return em.findOne(MailSequence, id);
}

/** One item of the sequence, or null when the sequence has no such item (any more). */
export function mailSequenceItem(em: EntityManager, sequenceId: number, itemId: number): Promise<IMailSequenceItem | null> {
  return em.findOne(MailSequenceItem, { id: itemId, sequence: sequenceId });
}
