import type { z } from 'zod';
import { daysOffset, offsetHours, scheduleSentence } from '../../../../domain/shop/mail-sequence-rules.ts';
import { triggersOf, type SequenceWithItems } from '../../../../db/repositories/shop/mail-sequences.ts';
import type { SequenceReply } from './schemas.ts';

/** A sequence as GET /api/v1/configuration/email_sequences/:id answers it; `timeZone` is the shop's. */
export function sequenceReply({ sequence: s, items }: SequenceWithItems, timeZone: string): z.input<typeof SequenceReply> {
  const t = triggersOf(s);
  const code = s.recipientDiscountCode;
  return {
    id: s.id,
    name: s.name,
    sender_id: s.senderId ?? null,
    sending_time: s.sendingTime,
    only_first_purchase: s.onlyFirstPurchase,
    active: s.active,
    items: items.map((item) => ({
      id: item.id,
      email: { subject: item.subject, content: item.content },
      offset_amount: item.offsetAmount,
      offset_unit: item.offsetUnit,
      days_offset: daysOffset(item),
      offset_hours: offsetHours(item),
      schedule: scheduleSentence(item, s.sendingTime, timeZone),
    })),
    triggers: {
      status_id: t.statusId,
      products_dependent: t.productsDependent,
      product_ids: t.productIds,
      discount_code_id: t.discountCodeId,
      subscription_plan_id: t.subscriptionPlanId,
      newsletter_subscription: t.newsletterSubscription,
      first_subscription_entry: t.firstSubscriptionEntry,
    },
    recipient_discount_code: { enabled: code.enabled, type: code.type, value: code.value, validity_days: code.validityDays, product_ids: code.productIds },
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}
