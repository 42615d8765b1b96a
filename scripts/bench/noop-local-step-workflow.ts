/**
 * The floor of a workflow of a grant's shape: one empty local activity with a grant's profile in
 * its one workflow task, without the step's work. Bundled on its own (workflowsPath), apart from
 * the no-op's bundle so that one stays as it was, and run by the bench on its own task queue.
 */
import type { BenchNoopActivities } from './noop-activities.ts';
import { activitiesOf } from '../../workflows/shared/activities-of.ts';
import { LOCAL_DB_STEP } from '../../workflows/shared/activity-profiles.ts';

const steps = activitiesOf<BenchNoopActivities>(LOCAL_DB_STEP);

export async function benchNoopLocalStep(): Promise<void> {
  await steps.benchNoopStep();
}
