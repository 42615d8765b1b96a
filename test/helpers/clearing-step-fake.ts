import type { Activities } from '../../activities/index.ts';
import { runClearingStep, type ClearingEffects } from '../../activities/shop/clearing-step.ts';
import { runClearingOutside, type ClearingOutsideEffects } from '../../activities/shop/clearing-outside.ts';

/**
 * The clearing's one step and its outside activity made of a test's fake activities (each part as
 * the real ones run it, without a database: no savepoint), unless the test fakes them itself: the
 * clearing tests fake the effects one by one, and the real step is made of them.
 */
export function withClearingStep(activities: Partial<Activities>): Partial<Activities> {
  return {
    clearOrderInOneStep: (input) => runClearingStep(activities as ClearingEffects, (work) => work(), input),
    sendClearingOutside: (input) => runClearingOutside(activities as ClearingOutsideEffects, input),
    ...activities,
  };
}
