/**
 * The Temporal baselines' workflows, bundled on their own (workflowsPath) and run by the bench on
 * their own task queues; they are not part of workflows/index.ts.
 * - `benchNoop` does nothing: its start-to-completion time is Temporal's own (start, one workflow
 *   task, completion).
 * - `benchNoopLocalStep` runs one empty local activity with a grant's profile: the floor of a
 *   workflow of a grant's shape (one local step in its one workflow task), without the step's work.
 */
import type { BenchNoopActivities } from './noop-activities.ts';
import { activitiesOf } from '../../workflows/shared/activities-of.ts';
import { LOCAL_DB_STEP } from '../../workflows/shared/activity-profiles.ts';

const steps = activitiesOf<BenchNoopActivities>(LOCAL_DB_STEP);

export async function benchNoop(): Promise<void> {
  // nothing to do
}

export async function benchNoopLocalStep(): Promise<void> {
  await steps.benchNoopStep();
}
