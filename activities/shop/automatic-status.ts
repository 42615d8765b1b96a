import { automaticRuleApplies, automaticStatusDueAt } from '../../domain/shop/automatic-status.ts';
import type { AutomaticStatusSource } from '../../domain/shop/automatic-status.ts';
import { automaticRulesAfter, orderStatusPosition, setStatusIfUnmoved, type ExpectedPosition } from '../../db/repositories/shop/automatic-statuses.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';

export interface PlanAutomaticStatusesInput {
  shopId: string;
  orderId: number;
  /** What brought the order to its status: its placement (at New), the clearing or a status change. */
  source: AutomaticStatusSource;
}

/** One timer to plan: set `toStatusId` at `dueAt` unless the order moved on. */
export interface PlannedAutomaticStatus extends ExpectedPosition {
  toStatusId: number;
  /** ISO instant. */
  dueAt: string;
}

export interface ApplyAutomaticStatusInput extends ExpectedPosition {
  shopId: string;
  orderId: number;
  toStatusId: number;
}

/** Automatic status assignment (domain/shop/automatic-status.ts): planning the timers and setting the status when one fires. */
export function automaticStatusActivities({ orm }: ActivityDeps, db: ActivityDb = unitsOfWork(orm)) {
  return {
    /**
     * The statuses to set later because the order reached its status by `source`: none when the
     * order has moved on already (a later change plans its own), else every rule after that status
     * whose conditions admit the order, due at the moment it was reached plus the offset.
     */
    async planAutomaticStatuses({ shopId, orderId, source }: PlanAutomaticStatusesInput): Promise<PlannedAutomaticStatus[]> {
      const em = db.shopEm(shopId);
      const at = await orderStatusPosition(em, shopId, orderId);
      if (!at) return [];
      let reachedAt: Date | null;
      if (source === 'placed') {
        if (at.lastChangeId !== null || at.clearedAt) return [];
        reachedAt = at.placedAt;
      } else if (source === 'clear') {
        if (at.statusKind !== 'PaidDefaultOrderStatus' || (at.lastChangeAt && at.clearedAt && at.lastChangeAt > at.clearedAt)) return [];
        reachedAt = at.clearedAt;
      } else {
        if (at.lastChangeId !== Number(source.slice('status:'.length))) return [];
        reachedAt = at.lastChangeAt;
      }
      if (!reachedAt) return [];
      const rules = await automaticRulesAfter(em, shopId, at.statusId);
      return rules
        .filter(({ rule }) => automaticRuleApplies(rule, at))
        .map(({ statusId, rule }) => ({ fromStatusId: at.statusId, expectedChangeId: at.lastChangeId, toStatusId: statusId, dueAt: automaticStatusDueAt(reachedAt, rule).toISOString() }));
    },

    /**
     * A timer fired: sets the status when the rule is still configured after the same status and the
     * order is where it was when the timer was planned. Answers the change (its workflow runs the
     * status change's effects) or null.
     */
    async applyAutomaticStatus({ shopId, orderId, toStatusId, ...expected }: ApplyAutomaticStatusInput): Promise<{ changeId: number } | null> {
      const em = db.shopEm(shopId);
      const stillConfigured = (await automaticRulesAfter(em, shopId, expected.fromStatusId)).some((r) => r.statusId === toStatusId);
      if (!stillConfigured) return null;
      const changeId = await setStatusIfUnmoved(em, shopId, orderId, expected, toStatusId);
      return changeId === null ? null : { changeId };
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<AutomaticStatusActivities>(profile)` (workflows/shared/activities-of.ts). */
export type AutomaticStatusActivities = ReturnType<typeof automaticStatusActivities>;
