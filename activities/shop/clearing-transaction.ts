import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import { readsOnce } from '../../db/repositories/shop/step-reads.ts';
import { inSavepoint, ormIn, type TransactionScope } from '../../db/repositories/shared/transaction-orm.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { shopWebhookActivities } from '../webhooks/shop.ts';
import { automaticStatusActivities } from './automatic-status.ts';
import { runClearingStep, type ClearingEffects, type ClearingStepInput, type ClearingStepResult } from './clearing-step.ts';
import { clubWebhookActivities } from './club-webhook.ts';
import { shopCourseAccessActivities } from './course-access.ts';
import { mailSequenceActivities } from './mail-sequences.ts';
import { orderEffectActivities } from './order-effects.ts';
import { subscriberRenewalActivities } from './subscriber-renewal.ts';

/**
 * The activities the clearing's step is made of, every one of them in the scope's transaction,
 * reading the order's facts once (the invoice part writes the order's invoice number, which the
 * webhook bodies after it carry: the facts are read again after it).
 */
function clearingEffectsIn(deps: ActivityDeps, scope: TransactionScope): ClearingEffects {
  const reads = readsOnce();
  const inTransaction = { ...deps, orm: ormIn(scope), reads };
  const effects = orderEffectActivities(inTransaction);
  return {
    ...effects,
    issueInvoice: (input) => effects.issueInvoice(input).finally(reads.forgetFacts),
    ...shopCourseAccessActivities(inTransaction),
    ...mailSequenceActivities(inTransaction),
    ...subscriberRenewalActivities(inTransaction),
    ...automaticStatusActivities(inTransaction),
    ...shopWebhookActivities(inTransaction),
    ...clubWebhookActivities(inTransaction),
  };
}

/**
 * The step's parts in one transaction (one pool connection, one commit), each in a savepoint
 * (activities/shop/clearing-step.ts).
 */
export function clearInOneTransaction(deps: ActivityDeps, input: ClearingStepInput): Promise<ClearingStepResult> {
  return shopEm(deps.orm, input.shopId).transactional(async (tx) => {
    const scope: TransactionScope = { em: tx };
    return runClearingStep(clearingEffectsIn(deps, scope), (work) => inSavepoint(scope, work), input);
  });
}

/**
 * The clearing's one database step (issue 26 item 1), a local activity of workflows/shop/clear-order.ts:
 * all its database-only work in one transaction (`clearInOneTransaction`).
 */
export function clearingStepActivities(deps: ActivityDeps) {
  const { issueInvoice } = orderEffectActivities(deps);
  return {
    async clearOrderInOneStep(input: ClearingStepInput): Promise<ClearingStepResult> {
      // The invoice number first, in a short transaction of its own: numbering locks the shop's row
      // (its counter), which order placement locks too, and a savepoint releases no lock, so inside
      // the step it would hold every checkout of the shop until the step commits. Its failure is
      // left to the step's invoice part, which then answers the recorded outcome or tries again.
      await issueInvoice({ shopId: input.shopId, orderId: input.orderId, source: 'clear' }).catch(() => undefined);
      return clearInOneTransaction(deps, input);
    },
  };
}
