import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The row a mail sequence run reads its recipient's address from at each send, so the run's id and
 * input hold only the row's id and the address's keyed hash (docs/decisions/operability.md, issue 41 item 3).
 */
export type SequenceRecipientRow = { kind: 'order'; orderId: number } | { kind: 'subscriber'; subscriberId: number } | { kind: 'newsletter'; subscriberId: number };

const addressOf: Record<SequenceRecipientRow['kind'], string> = {
  order: 'select lower(trim(email)) as email from shop_orders where shop_id = ? and id = ?',
  subscriber: 'select lower(trim(email)) as email from shop_subscribers where shop_id = ? and id = ?',
  newsletter: 'select email from shop_newsletter_subscribers where shop_id = ? and id = ?',
};

/** The lower-cased address of the row, or null when the row is gone (erased, unsubscribed). */
export async function sequenceRecipientAddress(em: EntityManager, shopId: string, row: SequenceRecipientRow): Promise<string | null> {
  const id = row.kind === 'order' ? row.orderId : row.subscriberId;
  const [found]: { email: string }[] = await em.execute(addressOf[row.kind], [shopId, id]);
  return found?.email ?? null;
}
