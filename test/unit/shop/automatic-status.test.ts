import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyAutomaticWrite,
  automaticOffsetMs,
  automaticRuleApplies,
  automaticStatusDueAt,
  closesAutomaticLoop,
  storedAutomaticRule,
  type AutomaticStatusRule,
} from '../../../domain/shop/automatic-status.ts';

const rule = (over: Partial<AutomaticStatusRule> = {}): AutomaticStatusRule => ({
  automatically_set_after_status_id: 1,
  automatically_set_offset_days: 0,
  automatically_set_offset_hours: 0,
  automatically_set_if_total_zero: false,
  automatically_set_only_for_shop_origin_orders: false,
  ...over,
});

describe('automatic status offsets', () => {
  it('is days of 24 hours plus hours, added to the moment the order reached the status', () => {
    expect(automaticOffsetMs(rule({ automatically_set_offset_days: 2, automatically_set_offset_hours: 3 }))).toBe(51 * 3600_000);
    expect(automaticStatusDueAt(new Date('2026-03-28T12:00:00Z'), rule({ automatically_set_offset_days: 1 })).toISOString()).toBe('2026-03-29T12:00:00.000Z');
  });

  it('is additive in days and hours (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3650 }), fc.integer({ min: 0, max: 8760 }), (days, hours) => {
        const total = automaticOffsetMs(rule({ automatically_set_offset_days: days, automatically_set_offset_hours: hours }));
        expect(total).toBe(automaticOffsetMs(rule({ automatically_set_offset_days: days })) + automaticOffsetMs(rule({ automatically_set_offset_hours: hours })));
        expect(total % 3600_000).toBe(0);
      }),
    );
  });
});

describe('automaticRuleApplies', () => {
  it('admits every order without conditions', () => {
    expect(automaticRuleApplies(rule(), { total: '12.00', placedIp: null })).toBe(true);
  });

  it('if_total_zero admits only orders whose total is zero', () => {
    const r = rule({ automatically_set_if_total_zero: true });
    expect(automaticRuleApplies(r, { total: '0.00', placedIp: null })).toBe(true);
    expect(automaticRuleApplies(r, { total: '0.01', placedIp: null })).toBe(false);
  });

  it('only_for_shop_origin_orders admits only orders placed at the storefront (with a placed_ip)', () => {
    const r = rule({ automatically_set_only_for_shop_origin_orders: true });
    expect(automaticRuleApplies(r, { total: '5.00', placedIp: '203.0.113.9' })).toBe(true);
    expect(automaticRuleApplies(r, { total: '5.00', placedIp: null })).toBe(false);
  });
});

describe('applyAutomaticWrite', () => {
  const statuses = { statusIds: new Set([1, 2, 5, 6]), edges: [{ from: 5, to: 6 }] };

  it('null turns the rule off', () => {
    expect(applyAutomaticWrite(rule(), null, 2, statuses)).toEqual({ ok: true, rule: null });
  });

  it('merges sent fields over the current rule, or over the defaults', () => {
    expect(applyAutomaticWrite(rule({ automatically_set_offset_days: 3 }), { automatically_set_offset_hours: 4 }, 2, statuses)).toEqual({
      ok: true,
      rule: rule({ automatically_set_offset_days: 3, automatically_set_offset_hours: 4 }),
    });
    expect(applyAutomaticWrite(null, { automatically_set_after_status_id: 5 }, 2, statuses)).toEqual({ ok: true, rule: rule({ automatically_set_after_status_id: 5 }) });
  });

  it.each([
    ['no after status on the first write', null, {}, 2],
    ['the status itself', null, { automatically_set_after_status_id: 2 }, 2],
    ['a status the shop does not have', null, { automatically_set_after_status_id: 9 }, 2],
  ])('refuses %s', (_, current, sent, own) => {
    expect(applyAutomaticWrite(current, sent, own, statuses)).toEqual({ ok: false, errors: { 'automatically_set.automatically_set_after_status_id': [expect.any(String)] } });
  });

  it('refuses a rule that closes a loop with the shop\'s rules, and accepts one replacing its own edge', () => {
    // 5 -> 6 exists; "after 6, set 5" would make them set each other forever.
    expect(applyAutomaticWrite(null, { automatically_set_after_status_id: 6 }, 5, statuses)).toMatchObject({ ok: false });
    // Status 6 moving its own rule from "after 5" to "after 1" is no loop.
    expect(applyAutomaticWrite(rule({ automatically_set_after_status_id: 5 }), { automatically_set_after_status_id: 1 }, 6, statuses)).toMatchObject({ ok: true });
  });

  it('closesAutomaticLoop follows chains and fan-out', () => {
    const edges = [{ from: 1, to: 2 }, { from: 2, to: 3 }, { from: 2, to: 4 }];
    expect(closesAutomaticLoop(edges, 4, 1)).toBe(true);
    expect(closesAutomaticLoop(edges, 3, 1)).toBe(true);
    expect(closesAutomaticLoop(edges, 1, 4)).toBe(false);
    expect(closesAutomaticLoop(edges, 5, 6)).toBe(false);
  });

  it('reads stored rules defensively', () => {
    expect(storedAutomaticRule(rule())).toEqual(rule());
    expect(storedAutomaticRule({ automatically_set_offset_days: 1 })).toBeNull();
    expect(storedAutomaticRule(null)).toBeNull();
  });
});
