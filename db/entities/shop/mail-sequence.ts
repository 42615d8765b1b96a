import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { OffsetUnit, RecipientDiscountCode } from '../../../domain/shop/mail-sequence-rules.ts';
import { DiscountCode } from './discount-code.ts';
import { shopOwned } from './shop-owned.ts';

const intArray = () => p.array<number>((v) => Number(v), (v) => String(v)).columnType('int[]').default([]);

/**
 * A mail sequence (spec: Mail sequence): messages sent to one recipient at offsets from a trigger.
 * The trigger table's fields are columns (`status_id` and the narrowings, the subscription plan,
 * the newsletter); ids are checked against the shop when written. `active` (an addition to the
 * spec's fields) turns the whole sequence off: pending messages of running recipients stop.
 */
export const MailSequence = defineEntity({
  name: 'MailSequence',
  tableName: 'shop_mail_sequences',
  indexes: [{ properties: ['shop', 'statusId'] }],
  ...shopOwned({
    name: p.string(),
    senderId: p.integer().nullable(),
    sendingTime: p.string().length(5).default('09:00'),
    onlyFirstPurchase: p.boolean().default(false),
    active: p.boolean().default(true),
    statusId: p.integer().nullable(),
    productsDependent: p.boolean().default(false),
    productIds: intArray(),
    discountCodeId: p.integer().nullable(),
    subscriptionPlanId: p.integer().nullable(),
    newsletterSubscription: p.boolean().default(false),
    firstSubscriptionEntry: p.boolean().default(false),
    recipientDiscountCode: p.json<RecipientDiscountCode>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IMailSequence = InferEntity<typeof MailSequence>;

/** One message of a sequence: its mail and its offset from the trigger (`offsetUnit`: minutes, hours or days). */
export const MailSequenceItem = defineEntity({
  name: 'MailSequenceItem',
  tableName: 'shop_mail_sequence_items',
  indexes: [{ properties: ['sequence', 'position'] }],
  ...shopOwned({
    sequence: () => p.manyToOne(MailSequence).ref(),
    position: p.integer(),
    subject: p.text(),
    content: p.text(),
    offsetAmount: p.integer(),
    offsetUnit: p.string().length(8).$type<OffsetUnit>(),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IMailSequenceItem = InferEntity<typeof MailSequenceItem>;

/**
 * The recipient's own discount code of a sequence (`recipient_discount_code`): made once per
 * sequence and address, found again by this link (never by the code's panel name, which the shop
 * may give a hand-made code too). Goes with the sequence or the code.
 */
export const MailSequenceRecipientCode = defineEntity({
  name: 'MailSequenceRecipientCode',
  tableName: 'shop_mail_sequence_recipient_codes',
  uniques: [{ properties: ['sequence', 'email'] }],
  ...shopOwned({
    sequence: () => p.manyToOne(MailSequence).ref().deleteRule('cascade'),
    email: p.text(),
    discountCode: () => p.manyToOne(DiscountCode).ref().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IMailSequenceRecipientCode = InferEntity<typeof MailSequenceRecipientCode>;
