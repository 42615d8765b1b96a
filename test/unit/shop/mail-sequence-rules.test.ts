import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyTriggerPatch,
  daysOffset,
  DEFAULT_RECIPIENT_CODE,
  instantAt,
  offsetHours,
  orderStartsSequence,
  recipientCodeProblems,
  scheduleSentence,
  sendInstant,
  triggerStillSet,
  type SequenceTriggers,
  usesTag,
} from '../../../domain/shop/mail-sequence-rules.ts';
import { zoneOffsetMinutes } from '../../../domain/shared/time-zones.ts';

/** `HH:MM` that many minutes later on the clock (the day wraps). */
const laterBy = (time: string, minutes: number) => {
  const total = (Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) + minutes) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

const none: SequenceTriggers = {
  statusId: null,
  productsDependent: false,
  productIds: [],
  discountCodeId: null,
  subscriptionPlanId: null,
  newsletterSubscription: false,
  firstSubscriptionEntry: false,
};
const narrowed: SequenceTriggers = { ...none, statusId: 5, productsDependent: true, productIds: [1, 2], discountCodeId: 9 };

describe('days_offset, offset_hours and schedule', () => {
  it('counts days as calendar days, hours as hours, minutes rounded down to hours', () => {
    expect([daysOffset({ offsetAmount: 3, offsetUnit: 'days' }), offsetHours({ offsetAmount: 3, offsetUnit: 'days' })]).toEqual([3, 72]);
    expect([daysOffset({ offsetAmount: 30, offsetUnit: 'hours' }), offsetHours({ offsetAmount: 30, offsetUnit: 'hours' })]).toEqual([0, 30]);
    expect([daysOffset({ offsetAmount: 119, offsetUnit: 'minutes' }), offsetHours({ offsetAmount: 119, offsetUnit: 'minutes' })]).toEqual([0, 1]);
  });

  it('describes the timing in a sentence', () => {
    expect(scheduleSentence({ offsetAmount: 0, offsetUnit: 'minutes' }, '09:00', 'Europe/Warsaw')).toBe('immediately after the trigger');
    expect(scheduleSentence({ offsetAmount: 1, offsetUnit: 'hours' }, '09:00', 'Europe/Warsaw')).toBe('1 hour after the trigger');
    expect(scheduleSentence({ offsetAmount: 45, offsetUnit: 'minutes' }, '09:00', 'Europe/Warsaw')).toBe('45 minutes after the trigger');
    expect(scheduleSentence({ offsetAmount: 2, offsetUnit: 'days' }, '18:30', 'Europe/Warsaw')).toBe('2 days after the trigger, at 18:30 (Europe/Warsaw)');
    expect(scheduleSentence({ offsetAmount: 0, offsetUnit: 'days' }, '18:30', 'UTC')).toContain('on the day of the trigger, at 18:30 (UTC)');
  });
});

describe('sendInstant', () => {
  const at = new Date('2026-03-28T20:15:00Z'); // Saturday 21:15 in Warsaw, the night before summer time

  it('adds minutes and hours exactly', () => {
    expect(sendInstant(at, { offsetAmount: 0, offsetUnit: 'minutes' }, '09:00', 'Europe/Warsaw')).toEqual(at);
    expect(sendInstant(at, { offsetAmount: 90, offsetUnit: 'minutes' }, '09:00', 'Europe/Warsaw').toISOString()).toBe('2026-03-28T21:45:00.000Z');
    expect(sendInstant(at, { offsetAmount: 5, offsetUnit: 'hours' }, '09:00', 'Europe/Warsaw').toISOString()).toBe('2026-03-29T01:15:00.000Z');
  });

  it('sends day offsets at sending_time in the shop zone, across a DST change', () => {
    // The next day is the first day of summer time: 09:00 there is 07:00 UTC, not 08:00.
    expect(sendInstant(at, { offsetAmount: 1, offsetUnit: 'days' }, '09:00', 'Europe/Warsaw').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(sendInstant(at, { offsetAmount: 7, offsetUnit: 'days' }, '09:00', 'Europe/Warsaw').toISOString()).toBe('2026-04-04T07:00:00.000Z');
    // The local day counts, not the UTC day: 23:30 UTC is already the next day in Warsaw.
    expect(sendInstant(new Date('2026-01-10T23:30:00Z'), { offsetAmount: 1, offsetUnit: 'days' }, '08:00', 'Europe/Warsaw').toISOString()).toBe('2026-01-12T07:00:00.000Z');
  });

  it('moves a wall time that a DST change skips forward by the change, east and west of UTC, and takes the first of one that repeats', () => {
    expect(instantAt('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(instantAt('2026-03-29', '02:30', 'Europe/Warsaw').toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(instantAt('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT, not EST
    expect(instantAt('2026-10-25', '02:30', 'Europe/Warsaw').toISOString()).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST, not CET
  });

  it('never sends a day-0 message before the trigger', () => {
    expect(sendInstant(at, { offsetAmount: 0, offsetUnit: 'days' }, '09:00', 'Europe/Warsaw')).toEqual(at);
    expect(sendInstant(at, { offsetAmount: 0, offsetUnit: 'days' }, '23:00', 'Europe/Warsaw').toISOString()).toBe('2026-03-28T22:00:00.000Z');
  });

  it('property: a day offset lands at sending_time in the zone, on or after the trigger, within the offset plus one day', () => {
    const zones = ['Europe/Warsaw', 'America/New_York', 'Asia/Tokyo', 'UTC'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom(...zones),
        (trigger, days, hour, minute, zone) => {
          const time = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          const sendAt = sendInstant(trigger, { offsetAmount: days, offsetUnit: 'days' }, time, zone);
          expect(sendAt.getTime()).toBeGreaterThanOrEqual(trigger.getTime());
          expect(sendAt.getTime() - trigger.getTime()).toBeLessThanOrEqual((days + 1) * 86_400_000 + 3_600_000);
          if (sendAt.getTime() !== trigger.getTime()) {
            const local = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(sendAt);
            // A wall time skipped by clocks set forward moves forward by the change; every other lands exactly.
            const gap = zoneOffsetMinutes(new Date(sendAt.getTime() + 86_400_000), zone) - zoneOffsetMinutes(new Date(sendAt.getTime() - 86_400_000), zone);
            if (local !== time) expect(gap > 0 && local === laterBy(time, gap)).toBe(true);
          }
        },
      ),
    );
  });

  it('property: minute and hour offsets are exact durations', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }), fc.integer({ min: 0, max: 100_000 }), (trigger, n) => {
        expect(sendInstant(trigger, { offsetAmount: n, offsetUnit: 'minutes' }, '09:00', 'Europe/Warsaw').getTime() - trigger.getTime()).toBe(n * 60_000);
        expect(sendInstant(trigger, { offsetAmount: n, offsetUnit: 'hours' }, '09:00', 'Europe/Warsaw').getTime() - trigger.getTime()).toBe(n * 3_600_000);
      }),
    );
  });
});

describe('applyTriggerPatch (rules 2 and 3)', () => {
  it('keeps triggers not sent', () => {
    const current = { ...narrowed, newsletterSubscription: true };
    expect(applyTriggerPatch(current, {})).toEqual({ triggers: current, problems: {} });
    expect(applyTriggerPatch(current, { newsletterSubscription: false }).triggers).toEqual({ ...current, newsletterSubscription: false });
  });

  it('status_id null turns off sending by status with the product and code narrowing', () => {
    expect(applyTriggerPatch(narrowed, { statusId: null })).toEqual({ triggers: { ...none }, problems: {} });
    expect(applyTriggerPatch(narrowed, { statusId: null, productsDependent: true }).problems).toHaveProperty(['triggers.products_dependent']);
    expect(applyTriggerPatch(narrowed, { statusId: null, discountCodeId: 3 }).problems).toHaveProperty(['triggers.discount_code_id']);
  });

  it('product_ids replaces the list, only with products_dependent true, never empty', () => {
    expect(applyTriggerPatch(narrowed, { productIds: [7] }).triggers.productIds).toEqual([7]);
    expect(applyTriggerPatch(narrowed, { productIds: [] }).problems).toHaveProperty(['triggers.product_ids']);
    expect(applyTriggerPatch({ ...none, statusId: 5 }, { productIds: [7] }).problems['triggers.product_ids']).toEqual(['works only with products_dependent true']);
    expect(applyTriggerPatch(narrowed, { productsDependent: false, productIds: [7] }).problems).toHaveProperty(['triggers.product_ids']);
    expect(applyTriggerPatch({ ...none, statusId: 5 }, { productsDependent: true, productIds: [7] })).toEqual({ triggers: { ...none, statusId: 5, productsDependent: true, productIds: [7] }, problems: {} });
  });

  it('products_dependent false clears the list; true needs a status and products', () => {
    expect(applyTriggerPatch(narrowed, { productsDependent: false }).triggers).toMatchObject({ productsDependent: false, productIds: [] });
    expect(applyTriggerPatch(none, { productsDependent: true, productIds: [1] }).problems).toHaveProperty(['triggers.products_dependent']);
    expect(applyTriggerPatch({ ...none, statusId: 5 }, { productsDependent: true }).problems).toHaveProperty(['triggers.product_ids']);
  });

  it('the code narrowing needs a status; null removes it', () => {
    expect(applyTriggerPatch(none, { discountCodeId: 3 }).problems).toHaveProperty(['triggers.discount_code_id']);
    expect(applyTriggerPatch(narrowed, { discountCodeId: null }).triggers.discountCodeId).toBeNull();
  });

  it('first_subscription_entry needs a plan', () => {
    expect(applyTriggerPatch(none, { firstSubscriptionEntry: true }).problems).toHaveProperty(['triggers.first_subscription_entry']);
    expect(applyTriggerPatch(none, { firstSubscriptionEntry: true, subscriptionPlanId: 4 }).problems).toEqual({});
    expect(applyTriggerPatch({ ...none, firstSubscriptionEntry: true, subscriptionPlanId: 4 }, { subscriptionPlanId: null }).problems).toHaveProperty(['triggers.first_subscription_entry']);
  });
});

describe('recipientCodeProblems', () => {
  it('checks value by type only when enabled', () => {
    expect(recipientCodeProblems(DEFAULT_RECIPIENT_CODE)).toEqual({});
    const on = { ...DEFAULT_RECIPIENT_CODE, enabled: true };
    expect(recipientCodeProblems(on)).toHaveProperty(['recipient_discount_code.value']);
    expect(recipientCodeProblems({ ...on, value: '101.00' })).toHaveProperty(['recipient_discount_code.value']);
    expect(recipientCodeProblems({ ...on, value: '10.00' })).toEqual({});
    expect(recipientCodeProblems({ ...on, type: 'value_discount', value: '0.00' })).toHaveProperty(['recipient_discount_code.value']);
    expect(recipientCodeProblems({ ...on, type: 'value_discount', value: '250.00' })).toEqual({});
    expect(recipientCodeProblems({ ...on, type: 'free_delivery_discount', value: '5.00' })).toHaveProperty(['recipient_discount_code.value']);
    expect(recipientCodeProblems({ ...on, type: 'free_delivery_discount' })).toEqual({});
  });
});

describe('orderStartsSequence and triggerStillSet', () => {
  const facts = { statusId: 5, productIds: [2, 3], discountCodeId: 9, firstPurchase: true };

  it('needs the status, a listed product, the code and (when asked) a first purchase', () => {
    expect(orderStartsSequence({ triggers: narrowed, onlyFirstPurchase: false }, facts)).toBe(true);
    expect(orderStartsSequence({ triggers: narrowed, onlyFirstPurchase: false }, { ...facts, statusId: 6 })).toBe(false);
    expect(orderStartsSequence({ triggers: narrowed, onlyFirstPurchase: false }, { ...facts, productIds: [3] })).toBe(false);
    expect(orderStartsSequence({ triggers: narrowed, onlyFirstPurchase: false }, { ...facts, discountCodeId: null })).toBe(false);
    expect(orderStartsSequence({ triggers: narrowed, onlyFirstPurchase: true }, { ...facts, firstPurchase: false })).toBe(false);
    expect(orderStartsSequence({ triggers: { ...none, statusId: 5 }, onlyFirstPurchase: false }, { ...facts, productIds: [], discountCodeId: null })).toBe(true);
    expect(orderStartsSequence({ triggers: none, onlyFirstPurchase: false }, facts)).toBe(false);
  });

  it('a run stops once its own trigger is removed', () => {
    expect(triggerStillSet(narrowed, { kind: 'order_status', statusId: 5, orderId: 1 })).toBe(true);
    expect(triggerStillSet({ ...narrowed, statusId: 6 }, { kind: 'order_status', statusId: 5, orderId: 1 })).toBe(false);
    expect(triggerStillSet({ ...none, newsletterSubscription: true }, { kind: 'newsletter' })).toBe(true);
    expect(triggerStillSet(none, { kind: 'newsletter' })).toBe(false);
    expect(triggerStillSet({ ...none, firstSubscriptionEntry: true, subscriptionPlanId: 4 }, { kind: 'subscription_entry', subscriptionPlanId: 4 })).toBe(true);
    expect(triggerStillSet({ ...none, firstSubscriptionEntry: true, subscriptionPlanId: 5 }, { kind: 'subscription_entry', subscriptionPlanId: 4 })).toBe(false);
  });
});

describe('usesTag', () => {
  it('finds the tag as fillTags reads it, spaces inside the braces allowed, and nothing else', () => {
    expect(usesTag('<p>{{KOD_RABATOWY}}</p>', 'KOD_RABATOWY')).toBe(true);
    expect(usesTag('<p>{{ KOD_RABATOWY }}</p>', 'KOD_RABATOWY')).toBe(true);
    expect(usesTag('<p>KOD_RABATOWY {{EMAIL}}</p>', 'KOD_RABATOWY')).toBe(false);
    expect(usesTag('<p>{{KOD_RABATOWY_2}}</p>', 'KOD_RABATOWY')).toBe(false);
  });
});
