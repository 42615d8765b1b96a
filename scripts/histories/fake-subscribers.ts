/**
 * In-memory subscribers the renewal workflow's fake activities read and write, as the database:
 * one model for the history recorder (scenarios.ts) and the workflow test
 * (test/workflows/shop/subscriber-renewal.test.ts), which changes a subscriber before it signals,
 * as the API does.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Activities } from '../../activities/index.ts';
import type { ChargeOutcome, RenewalFacts } from '../../activities/shop/subscriber-renewal.ts';

/** What the gateway does with an attempt; `none`: the shop has none, the attempt waits for its unpaid renewal order. */
type Answer = 'approve' | 'decline' | 'none';

export interface FakeSubscriber extends RenewalFacts {
  intervalMs: number;
  /** The gateway's answers, one per charge attempt in order; once they are used up, `gatewayAfter`. */
  gateway: Answer[];
  gatewayAfter: Answer;
  /** Each charge by `<period id>/<attempt>`, with when it was made and the end of the period it renews. */
  charges: Map<string, ChargeOutcome & { at: number; attempt: number; periodId: number; periodEnd: number }>;
  /** The renewals by charge id. */
  renewed: Map<number, { orderId: number; periodId: number }>;
  /** How often the schedule was loaded: a caller signals once the run has reacted. */
  loads: number;
  /** What happened, in order: `charge <attempt> <status>`, `renewed`, `end <status>`, `mail <kind>` (once a period). */
  events: { what: string; at: number; periodId: number }[];
}

type RenewalActivities = Pick<Activities, 'loadRenewalSchedule' | 'chargeRenewal' | 'renewSubscriber' | 'endSubscriber' | 'sendSubscriberMail'>;

/** The unpaid renewal order of a subscriber's period (no gateway). */
export const unpaidOrderId = (subscriberId: number, periodId: number) => 2000 + subscriberId * 100 + periodId;

export function fakeSubscribers() {
  const all = new Map<number, FakeSubscriber>();
  let nextId = 1;
  let nextChargeId = 1;

  const get = (id: number): FakeSubscriber => {
    const s = all.get(id);
    if (!s) throw ApplicationFailure.nonRetryable(`no subscriber ${id}`, 'SubscriberNotFound');
    return s;
  };

  const facts = (s: FakeSubscriber): RenewalFacts => {
    const { intervalMs: _i, gateway: _g, gatewayAfter: _a, charges: _c, renewed: _r, loads: _l, events: _e, ...rest } = s;
    return { ...rest, period: { ...rest.period } };
  };

  /** A subscriber in its first period (`intervalMs` long unless `period` says otherwise); its id. */
  function add(over: Partial<FakeSubscriber> & { intervalMs: number }, id = nextId++): number {
    const start = Date.now();
    all.set(id, {
      status: 'active',
      periodId: 1,
      period: { start, end: start + over.intervalMs },
      paused: false,
      renewalsDone: 0,
      renewalsLimit: 0,
      reminders: [],
      reminderOffsetsMs: { expires_in_one_week: 0, expires_in_one_day: 0 },
      dunningMs: [],
      failedAttempts: 0,
      gateway: [],
      gatewayAfter: 'approve',
      charges: new Map(),
      renewed: new Map(),
      loads: 0,
      events: [],
      ...over,
    });
    return id;
  }

  const activities: RenewalActivities = {
    async loadRenewalSchedule({ subscriberId }) {
      const s = get(subscriberId);
      s.loads += 1;
      return facts(s);
    },
    async chargeRenewal({ subscriberId, periodId, attempt }) {
      const s = get(subscriberId);
      const known = s.charges.get(`${periodId}/${attempt}`);
      if (known) return known;
      if (s.status !== 'active' || s.paused || periodId !== s.periodId) return { status: 'skipped', reason: 'not chargeable now' };
      const chargeId = nextChargeId++;
      const answer = s.gateway.shift() ?? s.gatewayAfter;
      // No gateway: one unpaid renewal order per period, every attempt of the period waits for it.
      const outcome: ChargeOutcome =
        answer === 'approve'
          ? { status: 'approved', chargeId }
          : answer === 'none'
            ? { status: 'unpaid', chargeId, orderId: unpaidOrderId(subscriberId, periodId) }
            : { status: 'declined', chargeId, reason: 'declined by the fake gateway' };
      if (outcome.status !== 'approved') s.failedAttempts += 1;
      s.charges.set(`${periodId}/${attempt}`, { ...outcome, at: Date.now(), attempt, periodId, periodEnd: s.period.end });
      s.events.push({ what: `charge ${attempt} ${outcome.status}`, at: Date.now(), periodId });
      return outcome;
    },
    async renewSubscriber({ subscriberId, chargeId }) {
      const s = get(subscriberId);
      const known = s.renewed.get(chargeId);
      if (known) return known;
      // immediate: the next period starts at the payment (the pure rule is tested in test/unit)
      s.period = { start: Date.now(), end: Date.now() + s.intervalMs };
      s.periodId += 1;
      s.renewalsDone += 1;
      s.failedAttempts = 0;
      const renewed = { orderId: 1000 + chargeId, periodId: s.periodId };
      s.renewed.set(chargeId, renewed);
      s.events.push({ what: 'renewed', at: Date.now(), periodId: s.periodId });
      return renewed;
    },
    async endSubscriber({ subscriberId, status }) {
      const s = get(subscriberId);
      if (s.status === 'active') s.status = status;
      s.events.push({ what: `end ${status}`, at: Date.now(), periodId: s.periodId });
      return facts(s);
    },
    async sendSubscriberMail({ subscriberId, periodId, kind }) {
      const s = get(subscriberId);
      if (!s.events.some((e) => e.what === `mail ${kind}` && e.periodId === periodId)) s.events.push({ what: `mail ${kind}`, at: Date.now(), periodId });
      return `${kind} sent`;
    },
  };

  return { all, get, add, activities, unpaidOrderId };
}
