import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import { readsOnce } from '../../db/repositories/shop/step-reads.ts';
import { effectLogBatch } from '../../db/repositories/shop/effect-log-batch.ts';
import { inSavepoint, shopEmIn, type TransactionScope } from '../../db/repositories/shared/transaction-orm.ts';
import type { ActivityDb, ActivityDeps } from '../shared/deps.ts';
import { shopWebhookActivities } from '../webhooks/shop.ts';
import { automaticStatusActivities } from './automatic-status.ts';
import { runClearingStep, type ClearingEffects, type ClearingStepInput, type ClearingStepResult } from './clearing-step.ts';
import { clubWebhookActivities } from './club-webhook.ts';
import { shopCourseAccessActivities } from './course-access.ts';
import { mailSequenceActivities } from './mail-sequences.ts';
import { orderEffectActivities } from './order-effects.ts';
import { subscriberRenewalActivities } from './subscriber-renewal.ts';

/**
 * The activities the clearing's step is made of, every one of them in the scope's transaction
 * (their explicit `ActivityDb`),
 * reading the order's facts once (an invoice part that numbers the invoice writes the order's
 * invoice number, which the webhook bodies after it carry: the facts are read again after it) and
 * its effect log once, and
 * keeping their effect-log entries for one write at the end (`effectLog`).
 */
function clearingEffectsIn(deps: ActivityDeps, scope: TransactionScope): { effects: ClearingEffects; effectLog: ReturnType<typeof effectLogBatch> } {
  const reads = readsOnce();
  const effectLog = effectLogBatch();
  const db: ActivityDb = { shopEm: (shopId) => shopEmIn(scope, shopId), reads, recordEffect: effectLog.record };
  const orderEffects = orderEffectActivities(deps, db);
  const effects: ClearingEffects = {
    ...orderEffects,
    async issueInvoice(input) {
      // An invoice answered `done` may have been numbered just now (the order's invoice number,
      // which the parts after it carry), and a failed part may have numbered it; `skipped` wrote nothing.
      try {
        const outcome = await orderEffects.issueInvoice(input);
        if (outcome.status === 'done') reads.forgetFacts();
        return outcome;
      } catch (error) {
        reads.forgetFacts();
        throw error;
      }
    },
    ...shopCourseAccessActivities(deps, db),
    ...mailSequenceActivities(deps, db),
    ...subscriberRenewalActivities(deps, undefined, db),
    ...automaticStatusActivities(deps, db),
    ...shopWebhookActivities(deps, db),
    ...clubWebhookActivities(deps, db),
  };
  return { effects, effectLog };
}

/**
 * The step's parts in one transaction (one pool connection, one commit). Parts almost never fail,
 * so the step first runs them without savepoints; when one fails, that transaction is rolled back
 * and the step runs again with each part in a savepoint (activities/shop/clearing-step.ts), where
 * a failing part rolls back only itself, its effect-log entries with it.
 */
export async function clearInOneTransaction(deps: ActivityDeps, input: ClearingStepInput): Promise<ClearingStepResult> {
  try {
    return await clearInTransaction(deps, input, 'no savepoints');
  } catch (error) {
    if (!(error instanceof PartFailed)) throw error;
    return clearInTransaction(deps, input, 'a savepoint per part');
  }
}

/** Rolls back the step's transaction run without savepoints, to run it again with them. */
class PartFailed extends Error {}

function clearInTransaction(deps: ActivityDeps, input: ClearingStepInput, isolation: 'no savepoints' | 'a savepoint per part'): Promise<ClearingStepResult> {
  return shopEm(deps.orm, input.shopId).transactional(async (tx) => {
    const scope: TransactionScope = { em: tx };
    const { effects, effectLog } = clearingEffectsIn(deps, scope);
    const part = isolation === 'no savepoints' ? failingTheTransaction() : inSavepoints(scope, effectLog);
    const result = await runClearingStep(effects, part, input);
    if (part.failed) throw new PartFailed('a part of the clearing step failed');
    await effectLog.write(tx);
    return result;
  });
}

/** How the step isolates a part (`runClearingStep`'s `inSavepoint`), and whether one failed. */
type PartIsolation = (<T>(work: () => Promise<T>) => Promise<T>) & { failed?: boolean };

/** No isolation: the first failure fails every part after it, and the transaction is rolled back. */
function failingTheTransaction(): PartIsolation {
  const part: PartIsolation = async (work) => {
    if (part.failed) throw new Error('an earlier part of the step failed');
    try {
      return await work();
    } catch (error) {
      part.failed = true;
      throw error;
    }
  };
  return part;
}

/** Each part in a savepoint: a failure rolls back that part and its effect-log entries. */
function inSavepoints(scope: TransactionScope, effectLog: ReturnType<typeof effectLogBatch>): PartIsolation {
  return async (work) => {
    const mark = effectLog.since();
    try {
      return await inSavepoint(scope, work);
    } catch (error) {
      effectLog.dropSince(mark);
      throw error;
    }
  };
}

/**
 * The clearing's one database step (issue 26 item 1), a local activity of workflows/shop/clear-order.ts:
 * all its database-only work in one transaction (`clearInOneTransaction`).
 */
export function clearingStepActivities(deps: ActivityDeps) {
  return {
    async clearOrderInOneStep(input: ClearingStepInput): Promise<ClearingStepResult> {
      const ahead = orderEffectActivities(deps);
      // The invoice number first, in a short transaction of its own: numbering locks the shop's row
      // (its counter), which order placement locks too, and a savepoint releases no lock, so inside
      // the step it would hold every checkout of the shop until the step commits. Its failure is
      // left to the step's invoice part, which then answers the recorded outcome or tries again.
      await ahead.issueInvoiceAhead({ shopId: input.shopId, orderId: input.orderId, source: 'clear' }).catch(() => undefined);
      return clearInOneTransaction(deps, input);
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<ClearingStepActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ClearingStepActivities = ReturnType<typeof clearingStepActivities>;
