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

/**
 * The recipient's own single-use discount code of a sequence (`recipient_discount_code`), created
 * once as a discount code of the shop and found again by its panel name on a retry; an advisory
 * lock on that name keeps two overlapping attempts from making two codes.
 */
export async function recipientCode(em: EntityManager, shopId: string, sequenceId: number, email: string, settings: RecipientDiscountCode, now: Date): Promise<string> {
  const name = `mail sequence ${sequenceId}: ${email}`;
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`${shopId}/${name}`]);
    const existing = await tx.findOne(DiscountCode, { name, pool: null });
    if (existing) return existing.code;
    const code = tx.create(DiscountCode, {
      shop: shopId,
      code: freshCode(sequenceId),
      name,
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
    return code.code;
  });
}
