import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DiscountCode } from '../../entities/shop/index.ts';
import type { RecipientDiscountCode } from '../../../domain/shop/mail-sequence-rules.ts';

const DAY_MS = 86_400_000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A code nobody guesses: the sequence id and ten random characters without look-alikes. */
function freshCode(sequenceId: number): string {
  return `SEQ${sequenceId}-${[...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
}

/** The panel name of the code, cut to the column's 255 characters (a long address would not fit). */
export function recipientCodeName(sequenceId: number, email: string): string {
  return `mail sequence ${sequenceId}: ${email}`.slice(0, 255);
}

/**
 * The recipient's own single-use discount code of a sequence (`recipient_discount_code`), created
 * once as a discount code of the shop and found again on a retry or a later message through its
 * link (shop_mail_sequence_recipient_codes, unique per sequence and address), never by name; an
 * advisory lock on sequence and address keeps two overlapping attempts from making two codes.
 */
export async function recipientCode(em: EntityManager, shopId: string, sequenceId: number, email: string, settings: RecipientDiscountCode, now: Date): Promise<string> {
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`${shopId}/sequence-code/${sequenceId}/${email}`]);
    const [linked] = await tx.execute<{ code: string }[]>(
      `select c.code from shop_mail_sequence_recipient_codes l join shop_discount_codes c on c.id = l.discount_code_id
        where l.shop_id = ? and l.sequence_id = ? and l.email = ?`,
      [shopId, sequenceId, email],
    );
    if (linked) return linked.code;
    const code = tx.create(DiscountCode, {
      shop: shopId,
      code: freshCode(sequenceId),
      name: recipientCodeName(sequenceId, email),
      discountType: settings.type,
      value: settings.value,
      caseSensitive: false,
      usagesLimit: 1,
      usagesPerCustomerLimit: 1,
      startDate: now,
      endDate: settings.validityDays === null ? null : new Date(now.getTime() + settings.validityDays * DAY_MS),
      relationWithProducts: settings.productIds.length ? 'selected_products' : 'all_products',
      productIds: settings.productIds,
    });
    await tx.flush();
    await tx.execute('insert into shop_mail_sequence_recipient_codes (shop_id, sequence_id, email, discount_code_id, created_at) values (?, ?, ?, ?, now())', [shopId, sequenceId, email, code.id]);
    return code.code;
  });
}
