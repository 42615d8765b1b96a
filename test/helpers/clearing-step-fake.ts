import type { Activities } from '../../activities/index.ts';
import { runClearingStep, type ClearingEffects } from '../../activities/shop/clearing-step.ts';

/**
 * The clearing's one step made of a test's fake activities (each part as the real step runs it,
 * without a database: no savepoint), unless the test fakes the step itself: the clearing tests
 * fake the effects one by one, and the real step is made of them.
 */
export function withClearingStep(activities: Partial<Activities>): Partial<Activities> {
  return { clearOrderInOneStep: (input) => runClearingStep(activities as ClearingEffects, (work) => work(), input), ...activities };
}
